"""The dataset registry: every dataset's file in a data directory, its sha256 digest, its origin
and how to obtain it (:func:`dataset_names`, :func:`info`)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DatasetInfo", "dataset_names", "info"]

_SKMF = (
    "it is inside the PyPI wheel scikit-multiflow==0.4.1: run streamtk.datasets.fetch({name!r}), or by hand "
    "`pip download --no-deps --only-binary :all: --platform manylinux1_x86_64 --python-version 37 "
    "scikit-multiflow==0.4.1` and extract skmultiflow/data/datasets/{member} from the wheel (a zip file)"
)
_ANJIN = "https://github.com/Anjin-Liu/ConceptDriftDatasets"


@dataclass(frozen=True)
class DatasetInfo:
    """Registry entry: where the file sits in a data directory, its digest and its origin."""

    name: str
    relpath: str
    sha256: str
    description: str
    obtain: str
    rows: int
    n_classes: int
    content_sha256: str = ""


_MOA = {
    # name: (sha256 of the .arff.gz file, sha256 of the decompressed .arff, n_classes, description)
    "SEAa0": (
        "a98a8f0b72788147272c3b359bebfca2e04c909a14fbf008ac85892d0c788222",
        "78b00a30c4ab28a0f8565ee9b09337481875c28ed7dbfbce75c587e74b0777d6",
        2,
        "SEA, abrupt drifts",
    ),
    "SEAg0": (
        "e6d17d56f8a41fc973b3e75d7868ec6a6cc38ce313f79467d86ccf3b0467e2bf",
        "cffcc5c41c0ec615de44da30fa44a8a143f7e3159dc8b5baf5455f2267d17c8d",
        2,
        "SEA, gradual drifts",
    ),
    "AGRa0": (
        "4d69759380e958a4553aa3e1c300300eef89c74b6f936d316319a4fafcb6a72e",
        "61389096a8df58273a0177de426f0561f8511e11f31926df30e564a662452c24",
        2,
        "Agrawal, abrupt drifts",
    ),
    "AGRg0": (
        "a8869e8f74bb54d053803fbe5064337eb7aa569363c22aefd48781d19b68d72b",
        "558a9ef83c2e987fccf782d20278d4af5d41c0b76d83f7237c13564b690fc62b",
        2,
        "Agrawal, gradual drifts",
    ),
    "HYP0": (
        "1f4c2bf4d48a57b5ea34ed6bd8d0ad6d8860d2013a3ca73600d2898da76eae59",
        "3c56a1fdbbd3991ed9749c99e310b68fb19d5604e419287d6f57bbb6df3deef7",
        2,
        "rotating hyperplane",
    ),
    "LEDa0": (
        "90e109cc3d8b504bd9284a29a4117ccdc8a1964575fa50a87014e7e07350d924",
        "3dc83ae7a4da91d4c67e13279a3318c6ec5f3e5f1edbc25bab1fd4b36b90e1d0",
        10,
        "LED, abrupt drifts",
    ),
    "LEDg0": (
        "a086d345dd236cbb4a292f7905f8bfd8450f17bd5c1d9906a0bf77589472f171",
        "fa42d2854fc6fd9d59c659e7968e24e2955e48baeb1b6a26174b58426d9a33ac",
        10,
        "LED, gradual drifts",
    ),
    "RBF0": (
        "1d0d1ceaf5a45271d83c6250a295a05ceb26ae00e19d710b52a92b9a3c27f820",
        "0eb9e524c6a3625551063ef18cba08ceac380f5aa99963ab143c5d3cb5b1415b",
        5,
        "random RBF, drifting centroids",
    ),
    "RBFr0": (
        "1bb0445de639c5aedd7de8981537b5796502c6a9a599ec6a578d57b946f29284",
        "5f7dec6c14d419ba2ca0eb1effbf53ebba814324b20df251aca1d7f361097520",
        5,
        "random RBF, region drift",
    ),
    "RTG0": (
        "4a748539301f9b91b1460c8d488682da0fcd1abf254989e1fe79030a323adfa4",
        "3515b004990ee5af49bf78d6be19f794ace2aee92e5818ccf668758f08d43852",
        2,
        "random tree, no drift",
    ),
}

_REGISTRY: dict[str, DatasetInfo] = {
    "electricity": DatasetInfo(
        "electricity",
        "elec2/elec.csv",
        "ebdfe5480ae25a43a7d054286135e3a9484697a2850d5158a333b1578c28bb97",
        "Electricity (Harries 1999), 6 numeric features, target 1=UP 0=DOWN; scikit-multiflow 0.4.1's elec.csv",
        _SKMF.format(name="electricity", member="elec.csv"),
        45312,
        2,
    ),
    "electricity_arff": DatasetInfo(
        "electricity_arff",
        "elec2/elecNormNew.arff",
        "2d86fbc74c69a5c04bcde0119bce280dd6d8efa0115987edc75b77ccf024d7f2",
        "Electricity as MOA's elecNormNew.arff (8 attributes incl. date and day; class UP/DOWN)",
        f"download RealWorld/Classification/elecNorm/elecNorm.arff from {_ANJIN} and save it as elecNormNew.arff",
        45312,
        2,
    ),
    "covertype": DatasetInfo(
        "covertype",
        "covtype/covtype.csv.gz",
        "0a0f1bfe128b659b6b44f5e987efacb86fd02df22d1a7355dd2079595c019390",
        "Forest Covertype (UCI), 54 raw attributes, target 1..7, original order; scikit-multiflow 0.4.1",
        _SKMF.format(name="covertype", member="covtype.csv") + " (fetch stores it gzip-compressed as covtype.csv.gz)",
        581012,
        7,
        "ea35ca6820fcbe0bdc6707e9ed31e11a9de84f07d88da73b511c737383c271a6",
    ),
    "kdd99": DatasetInfo(
        "kdd99",
        "kdd99/kddcup.data_10_percent.gz",
        "8045aca0d84e70e622d1148d7df782496f6333bf6eb979a1b0837c42a9fd9561",
        "KDD Cup 1999, 10% training file, 41 attributes, label = last column without its trailing '.'",
        "download kddcup.data_10_percent.gz from the UCI KDD archive "
        "(https://kdd.ics.uci.edu/databases/kddcup99/kddcup99.html)",
        494021,
        23,
        "f8c8267ebcd9c0ed1fd7d6277fe5bfff8732e9b7db8e61b873542b2a534b6f9a",
    ),
    "ozone": DatasetInfo(
        "ozone",
        "ozone/onehr.data",
        "342aceeafccd3994b2f5ee70c80f825e5d2d11e3224a83b3cc05fd11acaa7121",
        "Ozone level detection, one-hour peak set (UCI): date + 72 attributes ('?' missing), class 0/1",
        "download onehr.data from the UCI repository (https://archive.ics.uci.edu/dataset/172/ozone+level+detection)",
        2536,
        2,
    ),
    "poker": DatasetInfo(
        "poker",
        "poker/poker-lsn.labels",
        "7c29d40bcfbfb7aec6b558efbb0c126b7cf83cdcc13ee4128feac4b8441953a4",
        "Poker-Hand poker-lsn stream, labels only (one integer per line)",
        "download realWorld/poker/poker.labels from https://github.com/vlosing/driftDatasets "
        "and save it as poker-lsn.labels",
        829201,
        10,
    ),
}
for _k, (_sha, _csha, _nc, _desc) in _MOA.items():
    _REGISTRY[f"moa/{_k}"] = DatasetInfo(
        f"moa/{_k}",
        f"moa_synthetic/{_k}.arff.gz",
        _sha,
        f"MOA-generated stream ({_desc}), 10,000 instances; the generator command is in the @relation line",
        f"download {_k}.arff from the Synthetic/ folder of {_ANJIN}, gzip it and save it as {_k}.arff.gz",
        10000,
        _nc,
        _csha,
    )
del _k, _sha, _csha, _nc, _desc


def dataset_names() -> tuple:
    """All registered dataset names."""
    return tuple(_REGISTRY)


def info(name: str) -> DatasetInfo:
    """The registry entry of dataset ``name``."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {name!r} of type {type(name).__name__}")
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"name must be one of {list(_REGISTRY)}, got {name!r}") from None
