"""The notebook's face: the IPython magics (``%load_ext jqmagic``), Tab completion in
``%jq``, rich display of results, the SchemaBrowser widget and the jq course's checks."""
