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

/* Whether chain is a tuple of at least `least` exact strings (a field chain's names);
 * else a TypeError is set. */
static int chain_checked(PyObject *chain, Py_ssize_t least) {
    if (!PyTuple_Check(chain) || PyTuple_GET_SIZE(chain) < least) {
        PyErr_SetString(PyExc_TypeError, "chains are tuples of names");
        return 0;
    }
    for (Py_ssize_t d = 0; d < PyTuple_GET_SIZE(chain); d++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(chain, d))) {
            PyErr_SetString(PyExc_TypeError, "a chain's names must be strings");
            return 0;
        }
    }
    return 1;
}

/* The kinds met in each of k columns (bits of KIND_*), as a tuple of ints; NULL on error. */
static PyObject *kinds_tuple(const long *bits, Py_ssize_t k) {
    PyObject *kinds = PyTuple_New(k);
    if (kinds == NULL) return NULL;
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *b = PyLong_FromLong(bits[j]);
        if (b == NULL) {
            Py_DECREF(kinds);
            return NULL;
        }
        PyTuple_SET_ITEM(kinds, j, b);
    }
    return kinds;
}

/* Whether every chain of the tuple chains is chain_checked. */
static int chains_checked(PyObject *chains, Py_ssize_t least) {
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(chains); j++)
        if (!chain_checked(PyTuple_GET_ITEM(chains, j), least)) return 0;
    return 1;
}

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
    if (!chain_checked(chain, 0)) return NULL;
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
    if (!chains_checked(chains, 0)) return NULL;
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
    kinds = kinds_tuple(bits, k);
    if (kinds == NULL) goto fail;
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

/* ISO dates ('YYYY-MM-DDTHH:MM:SSZ') of a column cut into a format's pieces in one pass
 * (jqlang/dates.py, reformat_column): each value an ASCII string of that form, its hour,
 * minute and second in range and its year from 1000; its day is the caller's to check
 * (the distinct days are given back, once each). pieces: a tuple of text (str) and cuts
 * ((start, stop) of the date). Each distinct result is one object. Returns (days, out),
 * or None when a value is not such a date (the caller's loop reads each then). */
#define DATES_DAYS (1 << 15)
#define DATES_KEPT (1 << 12)
#define DATES_KEY 24

typedef struct {
    char key[DATES_KEY];
    PyObject *text;
} dates_kept;

static int dates_two(const char *s, int at, int most) {
    return (s[at] - '0') * 10 + (s[at + 1] - '0') <= most;
}

static int dates_form(const char *s) {
    static const char digits[] = {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18};
    for (size_t i = 0; i < sizeof digits; i++)
        if (s[(int)digits[i]] < '0' || s[(int)digits[i]] > '9') return 0;
    return s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':' &&
           s[19] == 'Z' && s[0] != '0' && dates_two(s, 11, 23) && dates_two(s, 14, 59) &&
           dates_two(s, 17, 59);
}

static PyObject *iso_dates(PyObject *self, PyObject *args) {
    PyObject *values, *pieces;
    if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &values, &PyTuple_Type, &pieces))
        return NULL;
    Py_ssize_t k = PyTuple_GET_SIZE(pieces), n = PyList_GET_SIZE(values), size = 0, cut = 0;
    const char *text[64];
    Py_ssize_t length[64], start[64];
    if (k == 0 || k > 64) Py_RETURN_NONE;
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *piece = PyTuple_GET_ITEM(pieces, j);
        if (PyUnicode_Check(piece)) {
            text[j] = PyUnicode_AsUTF8AndSize(piece, &length[j]);
            if (text[j] == NULL) return NULL;
        } else {
            Py_ssize_t a, b;
            if (!PyArg_ParseTuple(piece, "nn", &a, &b)) return NULL;
            if (a < 0 || b > 20 || b <= a) Py_RETURN_NONE;
            text[j] = NULL, start[j] = a, length[j] = b - a, cut += b - a;
        }
        size += length[j];
    }
    uint32_t *seen = PyMem_Calloc(DATES_DAYS * 2, sizeof(uint32_t));
    dates_kept *kept = cut <= DATES_KEY ? PyMem_Calloc(DATES_KEPT, sizeof(dates_kept)) : NULL;
    char *buffer = PyMem_Malloc(size + 1);
    PyObject *days = PyList_New(0), *out = PyList_New(n);
    Py_ssize_t distinct = 0;
    if (seen == NULL || buffer == NULL || days == NULL || out == NULL) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyList_GET_ITEM(values, i);
        if (!PyUnicode_CheckExact(v) || !PyUnicode_IS_ASCII(v) ||
            PyUnicode_GET_LENGTH(v) != 20 || !dates_form((const char *)PyUnicode_DATA(v)))
            goto none;
        const char *s = (const char *)PyUnicode_DATA(v);
        uint32_t day = 0;
        for (int at = 0; at < 10; at++)
            if (s[at] != '-') day = day * 10 + (uint32_t)(s[at] - '0');
        const uint32_t mask = DATES_DAYS * 2 - 1;
        for (uint32_t h = (day * 2654435761u) & mask;; h = (h + 1) & mask) {
            if (seen[h] == day) break;
            if (seen[h] == 0) { /* a new day: given back to be checked */
                PyObject *first = PyUnicode_FromStringAndSize(s, 11);
                if (first == NULL || PyList_Append(days, first) < 0) {
                    Py_XDECREF(first);
                    goto fail;
                }
                Py_DECREF(first);
                seen[h] = day;
                if (++distinct >= DATES_DAYS) goto none;
                break;
            }
        }
        char key[DATES_KEY];
        Py_ssize_t at = 0, keyed = 0;
        for (Py_ssize_t j = 0; j < k; j++) {
            const char *from = text[j] != NULL ? text[j] : s + start[j];
            memcpy(buffer + at, from, length[j]);
            if (text[j] == NULL && kept != NULL) memcpy(key + keyed, from, length[j]);
            at += length[j], keyed += text[j] == NULL ? length[j] : 0;
        }
        dates_kept *slot = NULL;
        if (kept != NULL) {
            uint64_t h = 1469598103934665603ULL;
            for (Py_ssize_t c = 0; c < keyed; c++)
                h = (h ^ (unsigned char)key[c]) * 1099511628211ULL;
            slot = &kept[h & (DATES_KEPT - 1)];
            if (slot->text != NULL && memcmp(slot->key, key, keyed) == 0) {
                Py_INCREF(slot->text);
                PyList_SET_ITEM(out, i, slot->text);
                continue;
            }
        }
        PyObject *made = PyUnicode_DecodeUTF8(buffer, size, NULL);
        if (made == NULL) goto fail;
        PyList_SET_ITEM(out, i, made);
        if (slot != NULL) { /* the slot's text from now on (the one before kept by out) */
            memcpy(slot->key, key, keyed);
            slot->text = made;
        }
    }
    PyMem_Free(seen);
    PyMem_Free(kept);
    PyMem_Free(buffer);
    return Py_BuildValue("(NN)", days, out);
none:
    PyMem_Free(seen);
    PyMem_Free(kept);
    PyMem_Free(buffer);
    Py_DECREF(days);
    Py_DECREF(out);
    Py_RETURN_NONE;
fail:
    PyMem_Free(seen);
    PyMem_Free(kept);
    PyMem_Free(buffer);
    Py_XDECREF(days);
    Py_XDECREF(out);
    return NULL;
}

/* Sums of a number column by a key column, each key's rows added in their order as
 * doubles from -0.0 (jqlang/columnsum.py): [(key, count, first, sum, bound)] in the
 * order of the keys' first rows, bound the sum of the numbers' magnitudes. A null value
 * is ``otherwise`` (None: passed over, the key still counted); None when a value is
 * neither an int nor a float, or a key not a string. */
typedef struct {
    Py_ssize_t count;
    PyObject *first;
    double sum, bound;
} group_sum;

static PyObject *group_sums(PyObject *self, PyObject *args) {
    PyObject *keys, *values, *otherwise;
    if (!PyArg_ParseTuple(args, "O!O!O", &PyList_Type, &keys, &PyList_Type, &values,
                          &otherwise))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(keys), groups = 0, room = 16;
    if (PyList_GET_SIZE(values) != n) {
        PyErr_SetString(PyExc_ValueError, "a key for each value");
        return NULL;
    }
    PyObject *places = PyDict_New(), *order = PyList_New(0);
    group_sum *sums = PyMem_Malloc(room * sizeof(group_sum));
    if (places == NULL || order == NULL || sums == NULL) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key = PyList_GET_ITEM(keys, i), *v = PyList_GET_ITEM(values, i);
        if (!PyUnicode_CheckExact(key)) goto none;
        PyObject *place = PyDict_GetItemWithError(places, key);
        Py_ssize_t at;
        if (place != NULL) {
            at = PyLong_AsSsize_t(place);
        } else {
            if (PyErr_Occurred()) goto fail;
            if (groups == room) {
                group_sum *more = PyMem_Realloc(sums, 2 * room * sizeof(group_sum));
                if (more == NULL) goto fail;
                sums = more, room *= 2;
            }
            at = groups++;
            sums[at] = (group_sum){0, NULL, -0.0, 0.0};
            PyObject *index = PyLong_FromSsize_t(at);
            if (index == NULL || PyDict_SetItem(places, key, index) < 0 ||
                PyList_Append(order, key) < 0) {
                Py_XDECREF(index);
                goto fail;
            }
            Py_DECREF(index);
        }
        if (v == Py_None) v = otherwise;
        if (v == Py_None) continue;
        double d;
        if (PyFloat_CheckExact(v)) {
            d = PyFloat_AS_DOUBLE(v);
        } else if (PyLong_CheckExact(v)) {
            d = PyLong_AsDouble(v); /* rounded as jq reads a long literal */
            if (d == -1.0 && PyErr_Occurred()) {
                PyErr_Clear();
                goto none;
            }
        } else {
            goto none;
        }
        group_sum *g = &sums[at];
        if (g->count++ == 0) g->first = v;
        g->sum += d;
        g->bound += fabs(d);
    }
    PyObject *out = PyList_New(groups);
    if (out == NULL) goto fail;
    for (Py_ssize_t at = 0; at < groups; at++) {
        group_sum *g = &sums[at];
        PyObject *row = Py_BuildValue("(OnOdd)", PyList_GET_ITEM(order, at), g->count,
                                      g->first == NULL ? Py_None : g->first, g->sum, g->bound);
        if (row == NULL) {
            Py_DECREF(out);
            goto fail;
        }
        PyList_SET_ITEM(out, at, row);
    }
    Py_DECREF(places);
    Py_DECREF(order);
    PyMem_Free(sums);
    return out;
none:
    Py_DECREF(places);
    Py_DECREF(order);
    PyMem_Free(sums);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(places);
    Py_XDECREF(order);
    PyMem_Free(sums);
    return NULL;
}

/* The sum of .x * .y over the items of a column's lists (jqlang/columnsum.py), each
 * product and each addition a double as jq makes them, in the items' order from -0.0:
 * (count, first item's x, its y, sum, bound: the sum of the products' magnitudes); None
 * when a column's value is neither a list nor null, or an item's x or y is not an int
 * or a float (the caller's loop raises jq's error then). */
static PyObject *joined_products(PyObject *self, PyObject *args) {
    PyObject *lists, *x, *y, *unread = Py_None;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyList_Type, &lists, &PyTuple_Type, &x,
                          &PyTuple_Type, &y))
        return NULL;
    PyObject *const *chains[2] = {&PyTuple_GET_ITEM(x, 0), &PyTuple_GET_ITEM(y, 0)};
    Py_ssize_t depths[2] = {PyTuple_GET_SIZE(x), PyTuple_GET_SIZE(y)}, count = 0;
    if (!chain_checked(x, 0) || !chain_checked(y, 0)) return NULL;
    PyObject *first[2] = {Py_None, Py_None};
    double sum = -0.0, bound = 0.0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(lists); i++) {
        PyObject *list = PyList_GET_ITEM(lists, i);
        if (list == Py_None) continue;
        if (!PyList_CheckExact(list)) Py_RETURN_NONE;
        for (Py_ssize_t at = 0; at < PyList_GET_SIZE(list); at++) {
            double factor[2];
            for (int c = 0; c < 2; c++) {
                PyObject *v = chain_end(PyList_GET_ITEM(list, at), chains[c], depths[c], unread);
                if (v == NULL) return NULL;
                if (PyFloat_CheckExact(v)) {
                    factor[c] = PyFloat_AS_DOUBLE(v);
                } else if (PyLong_CheckExact(v)) {
                    factor[c] = PyLong_AsDouble(v); /* rounded as jq reads a long literal */
                    if (factor[c] == -1.0 && PyErr_Occurred()) {
                        PyErr_Clear();
                        Py_RETURN_NONE;
                    }
                } else {
                    Py_RETURN_NONE; /* null, a string, ... or unread (Py_None's stand-in) */
                }
                if (count == 0) first[c] = v;
            }
            double product = factor[0] * factor[1];
            sum += product;
            bound += fabs(product);
            count++;
        }
    }
    return Py_BuildValue("(nOOdd)", count, first[0], first[1], sum, bound);
}
