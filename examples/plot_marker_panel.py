"""
Marker panels: the fewest genes that identify every cell type
=============================================================

Spatial transcriptomics (MERFISH, Xenium, CosMx) measures a panel of genes chosen in
advance from single-cell RNA-seq. :class:`sfmlearn.panels.MarkerPanel` chooses a panel
of a given size: per cell type, the class-balanced soft-SFM path orders the genes that
separate the type from the other cells, and a Welch-t ranking lists its up-regulated
genes; a greedy step then shares the budget among the types, adding the gene that most
raises the inner cross-validated balanced accuracy (smoothed over the cells' margins)
of a nearest-centroid classifier on the panel. Here on simulated counts
(:func:`sfmlearn.panels.make_cell_counts`: negative binomial, four planted markers per
type, some up- and some down-regulated), so we can check which genes it finds.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import train_test_split

from sfmlearn.panels import MarkerPanel, make_cell_counts, normalize_counts

X, y, planted = make_cell_counts(1500, 1000, n_types=6, n_markers_per_type=4,
                                 fold_change=5.0, random_state=0)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, stratify=y,
                                                    random_state=0)
panel = MarkerPanel(n_markers=12, n_screen=40, max_cells=120, n_Cs=5, random_state=0)
panel.fit(X_train, y_train)
print(panel.markers_.round(2).to_string(index=False))
found = np.isin(panel.panel_, planted["index"]).sum()
print(f"{found} of the {len(panel.panel_)} panel genes are planted markers")
print("held-out balanced accuracy:",
      round(balanced_accuracy_score(y_test, panel.predict(X_test)), 3))

# %%
# The allocation's inner-CV score after each gene, and the panel's expression by type
# (library-size normalised log1p counts, each gene scaled to its maximum).
Z = normalize_counts(X_train).toarray()[:, panel.panel_]
means = np.array([Z[y_train == k].mean(axis=0) for k in panel.classes_])
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
left.plot(np.arange(1, len(panel.validation_scores_) + 1), panel.validation_scores_, "o-")
left.set(xlabel="genes on the panel", ylabel="inner-CV smoothed balanced accuracy",
         title="Greedy allocation of the budget")
image = right.imshow(means / means.max(axis=0), cmap="viridis", aspect="auto")
right.set_xticks(range(len(panel.genes_)), labels=panel.markers_.cell_type + ":" +
                 panel.markers_.direction, rotation=90, fontsize="small")
right.set_yticks(range(len(panel.classes_)), labels=panel.classes_)
right.set(title="Panel genes (labelled type:direction)")
fig.colorbar(image, ax=right, label="mean / max")
fig.tight_layout()
plt.show()
