"""Big JSON files answered in one streaming pass in the worker: ``forms`` (which programs
stream, from their tree), ``reader`` (ijson reads, exact numbers), ``answer`` (the pass,
libjq per element) and ``fast`` (the same pass with jqlang where it compiles)."""
