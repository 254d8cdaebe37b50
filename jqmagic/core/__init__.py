"""The pure-Python core of jqmagic. Never imports IPython, ipywidgets or the faces."""
