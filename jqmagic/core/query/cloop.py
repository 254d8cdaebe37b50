"""The C loop (``_jqmain``, jq's main.c in C) with libjq loaded into it, shared by the
command line's run here (:mod:`.mainloop`) and the worker's ctypes results
(:mod:`.libjq`); None where the package was built without a C compiler."""

import os

from jqmagic.core.settings import libjq_path

try:
    from jqmagic.core.query import _jqmain
except ImportError:  # built without a C compiler: the worker answers instead
    _jqmain = None
else:
    _jqmain.load(os.fsencode(libjq_path()))
