import pytest

from sfmlearn.panels import make_cell_counts


@pytest.fixture(scope="session")
def cells():
    """600 cells x 400 genes, 4 types with 3 planted markers each."""
    return make_cell_counts(600, 400, n_types=4, n_markers_per_type=3, fold_change=6.0,
                            random_state=0)


#: Small LPs, so every fit takes about a second.
FAST = dict(n_Cs=4, max_cells=100, n_screen=30, random_state=0)
