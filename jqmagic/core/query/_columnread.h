/* A field chain's column over a list of Python values in one pass in C (jqlang/columns.py):
 * .a.b... of each value (an object's member, null when it has none or the value is null,
 * else the caller's UNREAD marker: the loop reads that item itself, raising jq's error),
 * each string made the first object equal to it when asked (a column whose strings repeat
 * keeps one object per distinct text), and the kinds of values met, as bits. Only exact
 * dicts are walked, and their keys and the chain's names are exact strings, so no Python
 * code runs during the pass. Included once by _jvbuild.c; columns.py calls it through
 * projected.py, which hands it over where the extension is built.
 */

#define KIND_NULL 1
#define KIND_BOOL 2
#define KIND_INT 4
#define KIND_FLOAT 8
#define KIND_STR 16
#define KIND_LIST 32
#define KIND_DICT 64
#define KIND_UNREAD 128
#define KIND_OTHER 256

static long kind_of(PyObject *v, PyObject *unread) {
    if (v == Py_None) return KIND_NULL;
    if (v == Py_True || v == Py_False) return KIND_BOOL;
    if (PyLong_CheckExact(v)) return KIND_INT;
    if (PyFloat_CheckExact(v)) return KIND_FLOAT;
    if (PyUnicode_CheckExact(v)) return KIND_STR;
    if (PyList_CheckExact(v)) return KIND_LIST;
    if (PyDict_CheckExact(v)) return KIND_DICT;
    return v == unread ? KIND_UNREAD : KIND_OTHER;
}

/* The value at the end of the chain (borrowed): unread where a value on the way is
 * neither an exact dict nor null; NULL with an exception set on a failed lookup. */
static PyObject *chain_end(PyObject *v, PyObject *const *names, Py_ssize_t depth,
                           PyObject *unread) {
    for (Py_ssize_t d = 0; d < depth; d++) {
        if (PyDict_CheckExact(v)) {
            PyObject *found = PyDict_GetItemWithError(v, names[d]);
            if (found == NULL && PyErr_Occurred()) return NULL;
            v = found == NULL ? Py_None : found;
        } else if (v != Py_None) {
            return unread;
        }
    }
    return v;
}

static PyObject *chain_column(PyObject *self, PyObject *args) {
    PyObject *values, *chain, *unread;
    int share;
    if (!PyArg_ParseTuple(args, "O!O!Op", &PyList_Type, &values, &PyTuple_Type, &chain,
                          &unread, &share))
        return NULL;
    Py_ssize_t depth = PyTuple_GET_SIZE(chain), n = PyList_GET_SIZE(values);
    for (Py_ssize_t d = 0; d < depth; d++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(chain, d))) {
            PyErr_SetString(PyExc_TypeError, "a chain's names must be strings");
            return NULL;
        }
    }
    PyObject *const *names = &PyTuple_GET_ITEM(chain, 0);
    PyObject *column = PyList_New(n);
    PyObject *first = share ? PyDict_New() : NULL;
    if (column == NULL || (share && first == NULL)) goto fail;
    long kinds = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = chain_end(PyList_GET_ITEM(values, i), names, depth, unread);
        if (v == NULL) goto fail;
        long kind = kind_of(v, unread);
        if (share && kind == KIND_STR) {
            v = PyDict_SetDefault(first, v, v);
            if (v == NULL) goto fail;
        }
        kinds |= kind;
        Py_INCREF(v);
        PyList_SET_ITEM(column, i, v);
    }
    Py_XDECREF(first);
    return Py_BuildValue("(Nl)", column, kinds);
fail:
    Py_XDECREF(column);
    Py_XDECREF(first);
    return NULL;
}

/* Objects made from columns: {keys[0]: columns[0][i], ...} for each i (the columns lists
 * of one length, the keys exact strings: no Python code runs while they are made). */
static PyObject *zip_objects(PyObject *self, PyObject *args) {
    PyObject *keys, *columns;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &keys, &PyTuple_Type, &columns))
        return NULL;
    Py_ssize_t k = PyTuple_GET_SIZE(keys), n = -1;
    if (k == 0 || PyTuple_GET_SIZE(columns) != k) {
        PyErr_SetString(PyExc_ValueError, "as many columns as keys, at least one");
        return NULL;
    }
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *column = PyTuple_GET_ITEM(columns, j);
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(keys, j)) || !PyList_CheckExact(column) ||
            (n >= 0 && PyList_GET_SIZE(column) != n)) {
            PyErr_SetString(PyExc_TypeError, "string keys and lists of one length");
            return NULL;
        }
        n = PyList_GET_SIZE(column);
    }
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *object = PyDict_New();
        if (object == NULL) goto fail;
        PyList_SET_ITEM(out, i, object);
        for (Py_ssize_t j = 0; j < k; j++) {
            if (PyDict_SetItem(object, PyTuple_GET_ITEM(keys, j),
                               PyList_GET_ITEM(PyTuple_GET_ITEM(columns, j), i)) < 0)
                goto fail;
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* The items of a column's lists joined (``[.[] | .a[]?]``: nulls passed over) and the
 * columns of field chains over those items, in one pass, each list and each item read
 * once while it is in cache: (items, columns, kinds of each column, kinds of the column's
 * own values). items and columns are None when a value is neither a list nor null. */
static PyObject *joined_chains(PyObject *self, PyObject *args) {
    PyObject *lists, *chains, *unread;
    if (!PyArg_ParseTuple(args, "O!O!O", &PyList_Type, &lists, &PyTuple_Type, &chains,
                          &unread))
        return NULL;
    Py_ssize_t k = PyTuple_GET_SIZE(chains), n = PyList_GET_SIZE(lists);
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *chain = PyTuple_GET_ITEM(chains, j);
        if (!PyTuple_Check(chain)) {
            PyErr_SetString(PyExc_TypeError, "chains are tuples of names");
            return NULL;
        }
        for (Py_ssize_t d = 0; d < PyTuple_GET_SIZE(chain); d++) {
            if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(chain, d))) {
                PyErr_SetString(PyExc_TypeError, "a chain's names must be strings");
                return NULL;
            }
        }
    }
    long own = 0, *bits = PyMem_Calloc(k + 1, sizeof(long));
    PyObject *items = PyList_New(0), *columns = PyTuple_New(k), *kinds = NULL;
    if (bits == NULL || items == NULL || columns == NULL) goto fail;
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *column = PyList_New(0);
        if (column == NULL) goto fail;
        PyTuple_SET_ITEM(columns, j, column);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *list = PyList_GET_ITEM(lists, i);
        if (!PyList_CheckExact(list)) {
            own |= kind_of(list, unread);
            continue;
        }
        own |= KIND_LIST;
        for (Py_ssize_t at = 0; at < PyList_GET_SIZE(list); at++) {
            PyObject *item = PyList_GET_ITEM(list, at);
            if (PyList_Append(items, item) < 0) goto fail;
            for (Py_ssize_t j = 0; j < k; j++) {
                PyObject *chain = PyTuple_GET_ITEM(chains, j);
                PyObject *v = chain_end(item, &PyTuple_GET_ITEM(chain, 0),
                                        PyTuple_GET_SIZE(chain), unread);
                if (v == NULL || PyList_Append(PyTuple_GET_ITEM(columns, j), v) < 0)
                    goto fail;
                bits[j] |= kind_of(v, unread);
            }
        }
    }
    kinds = PyTuple_New(k);
    if (kinds == NULL) goto fail;
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *b = PyLong_FromLong(bits[j]);
        if (b == NULL) goto fail;
        PyTuple_SET_ITEM(kinds, j, b);
    }
    PyMem_Free(bits);
    if (own & ~(KIND_LIST | KIND_NULL)) {
        Py_DECREF(items);
        Py_DECREF(columns);
        return Py_BuildValue("(OONl)", Py_None, Py_None, kinds, own);
    }
    return Py_BuildValue("(NNNl)", items, columns, kinds, own);
fail:
    PyMem_Free(bits);
    Py_XDECREF(items);
    Py_XDECREF(columns);
    Py_XDECREF(kinds);
    return NULL;
}
