"""Per-input programs over many inputs at once: ``parallel`` (N workers on file groups),
``lines`` (big JSON Lines files cut at line starts) and ``cluster`` (a Dask cluster)."""
