"""The inventory: every figure and table of the five seed documents (``/work/shared/seeds``).

Each item names the script that regenerates it, or why it is not regenerated. ``README.md`` shows
this list as a table and ``REPORT.md`` has one summary row per item (tests check both).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Item", "INVENTORY", "SEEDS", "by_id"]

#: seed label -> (file, document)
SEEDS = {
    "Bifet 2015": (
        "000_413ae63613f4eb28.txt",
        "Bifet et al., Efficient Online Evaluation of Big Data Stream Classifiers",
    ),
    "AMIDST": ("001_913e3c1af9917caa.txt", "AMIDST deliverable, Test and evaluation methodology"),
    "Gama 2014 slides": ("002_72df2b813f44f28c.txt", "Gama, Evaluating Data Stream Mining Algorithms (slides)"),
    "Zliobaite 2015": ("003_d673204241cbf689.txt", "Zliobaite et al., Evaluation methods ... temporal dependence"),
    "Gama 2013": ("004_64953fe83f1c0044.txt", "Gama, Sebastiao, Rodrigues, On evaluating stream learning algorithms"),
}


@dataclass(frozen=True)
class Item:
    id: str
    seed: str
    label: str
    title: str
    script: str | None
    reason: str = ""  # why it is not regenerated (script None)


_I = Item
INVENTORY = (
    # ------------------------------------------------------------------ Bifet et al. 2015 (seed 000)
    _I("bifet.fig1", "Bifet 2015", "Fig. 1", "block diagram of the evaluation pipeline", "bifet_fig1"),
    _I("bifet.table1", "Bifet 2015", "Table 1", "Sign and Wilcoxon tests on ten folds", "bifet_table1"),
    _I("bifet.table2", "Bifet 2015", "Table 2", "Type I/II rejection rates over all datasets", "bifet_tables2_4"),
    _I("bifet.table3", "Bifet 2015", "Table 3", "McNemar rejection rates per dataset", "bifet_tables2_4"),
    _I("bifet.table4", "Bifet 2015", "Table 4", "Wilcoxon rejection rates per dataset", "bifet_tables2_4"),
    _I(
        "bifet.table5",
        "Bifet 2015",
        "Table 5",
        "confusion-matrix example (kappa, MCC, A, G, H, kappa_m)",
        "bifet_table5",
    ),
    _I(
        "bifet.fig2",
        "Bifet 2015",
        "Fig. 2",
        "accuracy, kappa, H, kappa_m of HT and Majority on Electricity",
        "bifet_fig2",
    ),
    _I("bifet.fig3", "Bifet 2015", "Fig. 3", "windows 100 / 1000 / 10000 vs ADWIN on Electricity", "bifet_fig3"),
    _I("bifet.fig4", "Bifet 2015", "Fig. 4", "holdout vs ADWIN vs windows on a stream of 10^6 instances", "bifet_fig4"),
    # ------------------------------------------------------------------ AMIDST deliverable (seed 001)
    _I(
        "amidst.history",
        "AMIDST",
        "Document history",
        "table of document versions",
        None,
        "administrative table (versions, dates, authors are blank in the seed): nothing to compute",
    ),
    _I("amidst.table2.1", "AMIDST", "Table 2.1", "cat / dog / rabbit confusion matrix", "amidst_tables"),
    _I("amidst.table2.2", "AMIDST", "Table 2.2", "cat vs not-cat confusion matrix", "amidst_tables"),
    _I("amidst.table2.3", "AMIDST", "Table 2.3", "confusion table (TP, FP, FN, TN)", "amidst_tables"),
    _I("amidst.fig2.1", "AMIDST", "Fig. 2.1", "ROC curve with the random-guess diagonal", "amidst_roc"),
    _I("amidst.eq2.12", "AMIDST", "Eq. 2.12 (no figure)", "prequential AUC with and without forgetting", "amidst_auc"),
    # ------------------------------------------------------------------ Gama 2014 slides (seed 002)
    _I(
        "slides.demsar",
        "Gama 2014 slides",
        "slide 'The State-of-the-art': Demsar's Figure 2",
        "recalls of feature-selection measures (Mladenic and Grobelnik 1999)",
        None,
        "a figure of another paper (Demsar 2006) on data not in the seeds",
    ),
    _I(
        "slides.vfdt",
        "Gama 2014 slides",
        "slide 'VFDT: Illustrative Evaluation - Accuracy'",
        "VFDT accuracy vs number of examples (web mining)",
        None,
        "the web-mining data of Domingos and Hulten (2000) are not public (same figure as Gama 2013 Fig. 1)",
    ),
    _I(
        "slides.survey",
        "Gama 2014 slides",
        "slide 'Survey of Evaluation Methods' (table)",
        "evaluation methods of VFDT, CVFDT, ... in the literature",
        None,
        "a literature survey: nothing to compute",
    ),
    _I(
        "slides.preq_holdout",
        "Gama 2014 slides",
        "slide 'Prequential versus Holdout'",
        "prequential vs holdout error",
        "gama_fig2_3",
    ),
    _I(
        "slides.window_holdout",
        "Gama 2014 slides",
        "slide 'Prequential (sliding window) versus Holdout'",
        "sliding-window error vs holdout",
        "gama_fig2_3",
    ),
    _I(
        "slides.fading_holdout",
        "Gama 2014 slides",
        "slide 'Prequential (fading factor) versus Holdout'",
        "fading-factor error vs holdout",
        "gama_fig2_3",
    ),
    _I("slides.q", "Gama 2014 slides", "slide 'Accumulated Loss'", "Q statistic, cumulative", "gama_fig4_7"),
    _I(
        "slides.q_window",
        "Gama 2014 slides",
        "slide 'Accumulated Loss over sliding windows'",
        "Q over a window",
        "gama_fig4_7",
    ),
    _I(
        "slides.q_fading",
        "Gama 2014 slides",
        "slide 'Accumulated Loss using Fading Factors'",
        "Q with fading",
        "gama_fig4_7",
    ),
    _I(
        "slides.q_fading_window",
        "Gama 2014 slides",
        "slide 'Accumulated Loss using Fading Factors versus Sliding Window'",
        "Q: fading vs window",
        "gama_fig4_7",
    ),
    _I(
        "slides.mcnemar_problem",
        "Gama 2014 slides",
        "slide 'Signed McNemar Test: Illustrative Problem'",
        "error rates of the two compared classifiers",
        "gama_fig4_7",
    ),
    _I(
        "slides.mcnemar",
        "Gama 2014 slides",
        "slide 'Evolution of McNemar Test'",
        "cumulative signed McNemar",
        "gama_fig4_7",
    ),
    _I(
        "slides.mcnemar_w1000",
        "Gama 2014 slides",
        "slide 'McNemar ... sliding windows (w=1000)'",
        "signed McNemar over a window of 1000",
        "gama_fig4_7",
    ),
    _I(
        "slides.mcnemar_w100",
        "Gama 2014 slides",
        "slide 'McNemar ... sliding windows (w=100)'",
        "signed McNemar over a window of 100",
        "gama_fig4_7",
    ),
    _I(
        "slides.mcnemar_f099",
        "Gama 2014 slides",
        "slide 'McNemar ... fading factors (alpha = 0.99)'",
        "signed McNemar, fading 0.99",
        "gama_fig4_7",
    ),
    _I(
        "slides.mcnemar_f0999",
        "Gama 2014 slides",
        "slide 'McNemar ... fading factors (alpha = 0.999)'",
        "signed McNemar, fading 0.999",
        "gama_fig4_7",
    ),
    _I(
        "slides.castillo",
        "Gama 2014 slides",
        "slide 'Illustrative Evaluation - Drift' (Castillo and Gama 2006)",
        "adaptive prequential learning of Bayesian network classifiers",
        None,
        "a figure of another paper (Castillo and Gama, PKDD 2006) with no data or caption in the seed",
    ),
    _I(
        "slides.ph15000",
        "Gama 2014 slides",
        "slide 'Illustrative Evaluation - Drift' (change at 15000)",
        "accumulated error and Page-Hinkley statistic",
        "gama_fig8",
    ),
    _I(
        "slides.fading_delay_fig",
        "Gama 2014 slides",
        "slide 'Fading Factors and Delay Time' (figure)",
        "error rate and PH delays for several fading factors",
        "gama_slides_fading_delay",
    ),
    _I(
        "slides.fading_delay_table",
        "Gama 2014 slides",
        "slide 'Fading Factors and Delay Time' (table)",
        "PH delay per drift for fading factors 50 / 80 / 95 / 99 % and without",
        "gama_slides_fading_delay",
    ),
    # ------------------------------------------------------------------ Zliobaite et al. 2015 (seed 003)
    _I(
        "zliobaite.table1",
        "Zliobaite 2015",
        "Table 1",
        "settings considering temporal dependence",
        None,
        "a descriptive table (problem settings): nothing to compute",
    ),
    _I(
        "zliobaite.fig1",
        "Zliobaite 2015",
        "Fig. 1",
        "graphical models without / with temporal dependence",
        "zliobaite_fig1",
    ),
    _I("zliobaite.table2", "Zliobaite 2015", "Table 2", "theoretical performance of the baselines", "zliobaite_table2"),
    _I("zliobaite.table3", "Zliobaite 2015", "Table 3", "dataset characteristics P(M), P(T)", "zliobaite_table3"),
    _I(
        "zliobaite.table4",
        "Zliobaite 2015",
        "Table 4",
        "classifiers used in the experiments",
        None,
        "a descriptive table; its five classifiers (NB, HT, DDM, HAT, LBAG) are the MOA learners that produce the "
        "logs of Figs. 2-4, 6 and 7 (see those rows)",
    ),
    _I(
        "zliobaite.table5",
        "Zliobaite 2015",
        "Table 5",
        "reported accuracies on Electricity vs Persistent",
        "zliobaite_table5",
    ),
    _I("zliobaite.fig2", "Zliobaite 2015", "Fig. 2", "measures on original and shuffled data", "zliobaite_fig2"),
    _I(
        "zliobaite.fig3",
        "Zliobaite 2015",
        "Fig. 3",
        "Temporal Correction and Temporally Augmented accuracy",
        "zliobaite_fig3_4",
    ),
    _I("zliobaite.fig4", "Zliobaite 2015", "Fig. 4", "kappa+ of LBAG over time", "zliobaite_fig3_4"),
    _I("zliobaite.fig5", "Zliobaite 2015", "Fig. 5", "evidence Delta(l) of order-l dependence", "zliobaite_fig5"),
    _I("zliobaite.fig6", "Zliobaite 2015", "Fig. 6", "Temporally Augmented accuracy vs order l", "zliobaite_fig6"),
    _I("zliobaite.fig7", "Zliobaite 2015", "Fig. 7", "DDM-random: false alarms vs accuracy", "zliobaite_fig7"),
    # ------------------------------------------------------------------ Gama et al. 2013 (seed 004)
    _I(
        "gama.table1",
        "Gama 2013",
        "Table 1",
        "differences between batch and stream learning",
        None,
        "a descriptive table: nothing to compute",
    ),
    _I(
        "gama.fig1",
        "Gama 2013",
        "Fig. 1",
        "VFDT accuracy on a web-mining problem",
        None,
        "the web-mining data of Domingos and Hulten (2000) are not public",
    ),
    _I("gama.fig2", "Gama 2013", "Fig. 2", "holdout vs prequential error, Waveform, VFDT", "gama_fig2_3"),
    _I("gama.fig3", "Gama 2013", "Fig. 3", "holdout, prequential, windows, fading factors", "gama_fig2_3"),
    _I("gama.fig4", "Gama 2013", "Fig. 4", "Q statistic of two neural networks (electrical load)", "gama_fig4_7"),
    _I("gama.fig5", "Gama 2013", "Fig. 5", "Q over a window of 250 and with fading 0.995", "gama_fig4_7"),
    _I("gama.fig6", "Gama 2013", "Fig. 6", "signed McNemar, NB vs NB with drift detection, SEA", "gama_fig4_7"),
    _I("gama.fig7", "Gama 2013", "Fig. 7", "signed McNemar over windows 1000/100, fading 0.999/0.99", "gama_fig4_7"),
    _I("gama.fig8", "Gama 2013", "Fig. 8", "Page-Hinkley on SEA, drift at 15000", "gama_fig8"),
    _I("gama.table2", "Gama 2013", "Table 2", "PH delays on prequential / window / fading estimates", "gama_tables2_3"),
    _I("gama.fig9", "Gama 2013", "Fig. 9", "error estimates and PH detections, VFDT-NBa", "gama_tables2_3"),
    _I("gama.table3", "Gama 2013", "Table 3", "PH delays on ratios of two estimates", "gama_tables2_3"),
    _I("gama.fig10", "Gama 2013", "Fig. 10", "ratios of error estimates and PH detections", "gama_tables2_3"),
    _I("gama.appendixA", "Gama 2013", "Appendix A (no figure)", "Hoeffding sample size n = 18444", "gama_appendix_a"),
)


def by_id(item_id) -> Item:
    for it in INVENTORY:
        if it.id == item_id:
            return it
    raise KeyError(f"no inventory item {item_id!r}")
