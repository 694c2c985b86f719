"""Published tables the tests check against (shared by several test modules)."""

from __future__ import annotations

import numpy as np

# Demsar 2006 (JMLR 7: 1-30), Table 6 as ranks: AUC of C4.5 and its variants on 14 datasets (rank 1 = best).
DEMSAR_NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR_TABLE_6_RANKS = np.array(
    [
        [3, 1, 4, 2],
        [2, 4, 1, 3],
        [4, 3, 2, 1],
        [3, 1, 2, 4],
        [4, 2, 3, 1],
        [3, 1, 4, 2],
        [4, 2, 3, 1],
        [3, 1, 2, 4],
        [2, 3, 4, 1],
        [3, 2, 4, 1],
        [2, 1, 4, 3],
        [4, 2, 3, 1],
        [3, 4, 2, 1],
        [4, 1, 2.5, 2.5],
    ]
)
