"""What both browsers show, the SchemaBrowser widget's and ``jqmagic browse``'s: the tree's
model (``model``), its search (``search``), the jq box's completion and preview (``jqbox``)."""
