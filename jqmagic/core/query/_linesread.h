/* JSON Lines decoded in one pass in C into the values orjson makes of each line, with the
 * columns of some field chains made in the same pass (query/projected.py, lines_columns).
 *
 * Every string and number is looked up first in a small direct-mapped cache keyed by its
 * bytes as written: a text met again (a log's kinds, cities, names, member keys, 1.0) is
 * the same object, not a new one, so the values take less memory and their repeated
 * strings are already shared when a column compares or hashes them. A line this pass does
 * not take exactly as orjson would (blank, an integer past 18 digits, a float orjson
 * refuses as infinite, an escape of a surrogate, bytes that are not UTF-8, nesting deeper
 * than LINES_DEPTH, anything not JSON) goes to the caller's fallback, which reads it with
 * orjson, says SKIP for a blank one or raises. Included once by _jvbuild.c after
 * _columnread.h (chain_end, kind_of).
 */

#include "_linesscalar.h" /* the reader, its cache, strings and numbers */

static PyObject *lines_word(lines_reader *r, const char *word, PyObject *value) {
    size_t size = strlen(word);
    if ((size_t)(r->end - r->at) < size || memcmp(r->at, word, size) != 0)
        return lines_decline(r);
    r->at += size;
    Py_INCREF(value);
    return value;
}

/* Past a container's opening bracket and the space after it: 1 if ``close`` ends it at
 * once (then past that too). */
static int lines_open(lines_reader *r, char close) {
    r->at++;
    lines_space(r);
    if (r->at < r->end && *r->at == close) {
        r->at++;
        return 1;
    }
    return 0;
}

static PyObject *lines_array(lines_reader *r, int depth, lines_site *site) {
    PyObject *list = PyList_New(0);
    if (list == NULL || lines_open(r, ']')) return list;
    for (;;) {
        PyObject *item = lines_value(r, depth + 1, site);
        if (item == NULL || PyList_Append(list, item) < 0) goto fail;
        Py_DECREF(item);
        item = NULL;
        lines_space(r);
        if (r->at < r->end && *r->at == ',') {
            r->at++;
        } else if (r->at < r->end && *r->at == ']') {
            r->at++;
            return list;
        } else {
            lines_decline(r);
            goto fail;
        }
        continue;
    fail:
        Py_XDECREF(item);
        Py_DECREF(list);
        return NULL;
    }
}

/* The site of a member's key: one of four places by its address, else the first taken
 * over (its counts start again). */
static lines_site *lines_site_of(lines_reader *r, PyObject *key) {
    uintptr_t h = ((uintptr_t)key >> 4) * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 4; i++) {
        lines_site *site = &r->sites[(h + i) & (LINES_SITES - 1)];
        if (site->key == key) return site;
        if (site->key == NULL) {
            site->key = key;
            return site;
        }
    }
    lines_site *site = &r->sites[h & (LINES_SITES - 1)];
    lines_unkeep(site);
    lines_forget_order(site);
    *site = (lines_site){.key = key};
    r->unsure = 1;
    return site;
}

/* A line's member whose key is a one-name chain's: its column's place for the line set
 * now (the last of a repeated key, as the object keeps it), not looked up after. */
static void lines_head(lines_reader *r, PyObject *key, PyObject *item) {
    for (int h = 0; h < r->heads; h++) {
        if (r->head_keys[h] == key) {
            PyObject *old = PyList_GET_ITEM(r->head_columns[h], r->row);
            Py_INCREF(item);
            PyList_SET_ITEM(r->head_columns[h], r->row, item);
            Py_XDECREF(old);
            return;
        }
    }
}

/* The places lines_head set for a line the fallback reads (or skips): emptied. */
static void lines_unset_heads(lines_reader *r) {
    for (int h = 0; h < r->heads; h++) {
        PyObject *old = PyList_GET_ITEM(r->head_columns[h], r->row);
        PyList_SET_ITEM(r->head_columns[h], r->row, NULL);
        Py_XDECREF(old);
    }
}

/* Whether a key's text is written as it is (ASCII, no quote, backslash or control). */
static int lines_plain_key(PyObject *key) {
    if (!PyUnicode_IS_COMPACT_ASCII(key)) return 0;
    const char *text = (const char *)PyUnicode_DATA(key);
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(key); i++)
        if (text[i] < 0x20 || text[i] == '"' || text[i] == '\\') return 0;
    return 1;
}

/* The key of an object's m-th member, and its site: foreseen from the last object of the
 * same site (a log's lines hold their members in the same order) by comparing the text,
 * else read and remembered for the next. */
static PyObject *lines_key(lines_reader *r, lines_site *at, Py_ssize_t m, lines_site **site) {
    lines_next *next = at->order != NULL && m < LINES_ORDER ? &at->order[m] : NULL;
    if (next != NULL && next->key != NULL) {
        Py_ssize_t size = PyUnicode_GET_LENGTH(next->key);
        if (r->end - r->at > size + 1 && r->at[size + 1] == '"' &&
            memcmp(r->at + 1, PyUnicode_DATA(next->key), size) == 0) {
            r->at += size + 2;
            if (next->site->key != next->key) next->site = lines_site_of(r, next->key);
            *site = next->site;
            Py_INCREF(next->key);
            return next->key;
        }
    }
    PyObject *key = lines_string(r, (lines_site *)r);
    if (key == NULL) return NULL;
    *site = lines_site_of(r, key);
    if (m < LINES_ORDER && lines_plain_key(key)) {
        if (at->order == NULL) at->order = PyMem_Calloc(LINES_ORDER, sizeof(lines_next));
        if (at->order != NULL) {
            Py_INCREF(key);
            Py_XSETREF(at->order[m].key, key);
            at->order[m].site = *site;
        }
    }
    return key;
}

/* The members held while a row's are read (rows_dict makes the dict once they are all). */
typedef struct {
    int n;
    PyObject *keys[ROWS_MAX], *items[ROWS_MAX]; /* owned */
} lines_members;

static void lines_drop_members(lines_members *held) {
    for (int i = 0; i < held->n; i++) {
        Py_DECREF(held->keys[i]);
        Py_DECREF(held->items[i]);
    }
    held->n = 0;
}

/* An object: at the top level (a row) its members held until its end, then made into a
 * dict sharing its keys with rows of its shape (_linesrows.h), past ROWS_MAX members a
 * plain one; below it a plain dict filled as its members are read. */
static PyObject *lines_object(lines_reader *r, int depth, lines_site *at) {
    lines_site *site = NULL;
    lines_members held = {0};
    int holding = depth == 0 && r->rows != NULL;
    PyObject *object = holding ? NULL
                       : at->members > 5 ? _PyDict_NewPresized(at->members) : PyDict_New();
    PyObject *key = NULL, *item = NULL;
    if (!holding && object == NULL) return NULL;
    if (lines_open(r, '}')) return holding ? PyDict_New() : object;
    for (;;) {
        if (r->at >= r->end || *r->at != '"') goto declined;
        key = lines_key(r, at, holding ? held.n : PyDict_GET_SIZE(object), &site);
        if (key == NULL) goto fail;
        lines_space(r);
        if (r->at >= r->end || *r->at != ':') goto declined;
        r->at++;
        item = lines_value(r, depth + 1, site);
        if (item == NULL) goto fail;
        if (depth == 0) lines_head(r, key, item);
        if (holding) {
            held.keys[held.n] = key;
            held.items[held.n++] = item;
            key = item = NULL;
            if (held.n == ROWS_MAX) { /* too many to share: a plain dict from here */
                object = rows_plain(held.keys, held.items, held.n);
                lines_drop_members(&held);
                holding = 0;
                if (object == NULL) goto fail;
            }
        } else {
            if (PyDict_SetItem(object, key, item) < 0) goto fail;
            Py_CLEAR(key);
            Py_CLEAR(item);
        }
        lines_space(r);
        if (r->at < r->end && *r->at == ',') {
            r->at++;
            lines_space(r);
        } else if (r->at < r->end && *r->at == '}') {
            r->at++;
            if (holding) {
                object = rows_dict(r->rows, held.keys, held.items, held.n);
                lines_drop_members(&held);
                if (object == NULL) return NULL;
            }
            at->members = PyDict_GET_SIZE(object);
            return object;
        } else {
            goto declined;
        }
    }
declined:
    lines_decline(r);
fail:
    lines_drop_members(&held);
    Py_XDECREF(key);
    Py_XDECREF(item);
    Py_XDECREF(object);
    return NULL;
}

static PyObject *lines_value(lines_reader *r, int depth, lines_site *site) {
    if (depth > LINES_DEPTH) return lines_decline(r);
    lines_space(r);
    if (r->at >= r->end) return lines_decline(r);
    switch (*r->at) {
    case '{': return lines_object(r, depth, site == NULL ? &r->root : site);
    case '[': return lines_array(r, depth, site);
    case '"': return lines_string(r, site);
    case 't': return lines_word(r, "true", Py_True);
    case 'f': return lines_word(r, "false", Py_False);
    case 'n': return lines_word(r, "null", Py_None);
    default: return lines_number(r, site);
    }
}

/* One line's value: decoded here, else the fallback's (NULL and skip set: a blank line). */
static PyObject *lines_line(lines_reader *r, const char *line, const char *end,
                            PyObject *fallback) {
    r->at = line;
    r->end = end;
    r->declined = 0;
    PyObject *v = lines_value(r, 0, NULL);
    if (v != NULL) {
        lines_space(r);
        if (r->at == end) return v;
        Py_DECREF(v); /* more after the value: orjson refuses the line */
        r->declined = 1;
    } else if (!r->declined) {
        return NULL;
    }
    lines_unset_heads(r);
    return PyObject_CallFunction(fallback, "y#", line, (Py_ssize_t)(end - line));
}

static void lines_release(lines_reader *r) {
    for (Py_ssize_t s = 0; r->slots != NULL && s < LINES_SLOTS; s++)
        Py_XDECREF(r->slots[s].value);
    for (Py_ssize_t s = 0; r->keys != NULL && s < LINES_KEY_SLOTS; s++)
        Py_XDECREF(r->keys[s].value);
    for (int h = 0; h < r->heads; h++) Py_DECREF(r->head_keys[h]);
    for (int s = 0; s < LINES_SITES; s++) {
        lines_unkeep(&r->sites[s]);
        lines_forget_order(&r->sites[s]);
    }
    lines_unkeep(&r->root);
    lines_forget_order(&r->root);
    rows_release(r->rows);
    PyMem_Free(r->slots);
    PyMem_Free(r->keys);
    PyMem_Free(r->scratch);
}

/* The chains' names put in the keys' cache as they are: an object's member of that name
 * gets the very key the chain reads it by (a lookup compares no text). */
static void lines_seed_keys(lines_reader *r, PyObject *chains) {
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(chains); j++) {
        PyObject *chain = PyTuple_GET_ITEM(chains, j);
        for (Py_ssize_t d = 0; d < PyTuple_GET_SIZE(chain); d++) {
            PyObject *name = PyTuple_GET_ITEM(chain, d);
            Py_ssize_t size;
            const char *text = PyUnicode_AsUTF8AndSize(name, &size);
            if (text == NULL) {
                PyErr_Clear();
                continue;
            }
            int plain = 1;
            for (Py_ssize_t i = 0; i < size; i++)
                plain &= (unsigned char)text[i] >= 0x20 && text[i] != '"' && text[i] != '\\';
            lines_slot *slot;
            PyObject *met = plain ? lines_cached(r, text, size, 's', (lines_site *)r, &slot)
                                  : NULL;
            if (met != NULL)
                Py_DECREF(met); /* an equal name met already: its key is kept */
            else if (plain)
                lines_keep(r, slot, text, size, 's', name);
        }
    }
}

/* How many distinct strings the members named as each chain's last name hold, each one
 * object (-1: not known to be one object each: see lines_own). */
static PyObject *lines_distinct(lines_reader *r, PyObject *chains) {
    Py_ssize_t k = PyTuple_GET_SIZE(chains);
    PyObject *found = PyTuple_New(k);
    for (Py_ssize_t j = 0; found != NULL && j < k; j++) {
        PyObject *chain = PyTuple_GET_ITEM(chains, j);
        PyObject *name = PyTuple_GET_ITEM(chain, PyTuple_GET_SIZE(chain) - 1);
        Py_ssize_t distinct = -1, sites = 0;
        for (int s = 0; s < LINES_SITES && !r->unsure; s++) {
            lines_site *site = &r->sites[s];
            if (site->key == NULL || PyUnicode_Compare(site->key, name) != 0) continue;
            sites++;
            distinct = site->unkept ? -1 : site->distinct;
        }
        PyObject *count = PyLong_FromSsize_t(sites == 1 ? distinct : -1);
        if (count == NULL) {
            Py_CLEAR(found);
            break;
        }
        PyTuple_SET_ITEM(found, j, count);
    }
    return found;
}

/* Lists of n places shortened to their first count (the places past it are empty). */
static int lines_shorten(PyObject *list, Py_ssize_t count) {
    return PyList_SetSlice(list, count, PyList_GET_SIZE(list), NULL);
}

#define LINES_ROW_SLOTS 16384 /* short lines' values kept by their text: a power of two */
#define LINES_ROW_TEXT 96

/* A short line's value, by its whole text (lines_columns' share: equal lines, one value). */
typedef struct {
    Py_ssize_t size;
    uint64_t hash;
    char text[LINES_ROW_TEXT];
    PyObject *value; /* owned; NULL: an empty slot */
} lines_row_slot;

static uint64_t lines_row_hash(const char *text, Py_ssize_t size) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)size;
    for (Py_ssize_t i = 0; i < size; i += 8)
        h = (h ^ lines_word8(text + i, size - i)) * 0xFF51AFD7ED558CCDULL;
    return h ^ (h >> 31);
}

/* The slot of a short line's text, with the value of an equal line met before (or NULL). */
static lines_row_slot *lines_row_of(lines_row_slot *rows, const char *line, Py_ssize_t size,
                                    PyObject **found) {
    *found = NULL;
    if (rows == NULL || size > LINES_ROW_TEXT) return NULL;
    uint64_t h = lines_row_hash(line, size);
    lines_row_slot *slot = &rows[h & (LINES_ROW_SLOTS - 1)];
    if (slot->value != NULL && slot->hash == h && slot->size == size &&
        memcmp(slot->text, line, size) == 0) {
        Py_INCREF(slot->value);
        *found = slot->value;
    }
    slot->hash = h;
    return slot;
}

static void lines_row_keep(lines_row_slot *slot, const char *line, Py_ssize_t size,
                           PyObject *value) {
    Py_XSETREF(slot->value, Py_NewRef(value));
    slot->size = size;
    memcpy(slot->text, line, size);
}

/* How often lines are looked up: after a window of 8192 lines with fewer than one in 16 found
 * (each line an id or a timestamp of its own), not for the next 15 windows (keeping each
 * line's value cost a cache miss a line, a fifth of the decode's time). */
#define LINES_ROW_WINDOW 8192
typedef struct {
    Py_ssize_t tried, hits, resting;
} lines_row_pace;

static lines_row_slot *lines_row_paced(lines_row_pace *pace, lines_row_slot *rows,
                                       const char *line, Py_ssize_t size, PyObject **found) {
    *found = NULL;
    if (rows == NULL) return NULL;
    if (pace->resting > 0) {
        pace->resting--;
        return NULL;
    }
    lines_row_slot *slot = lines_row_of(rows, line, size, found);
    pace->hits += *found != NULL;
    if (++pace->tried == LINES_ROW_WINDOW) {
        pace->resting = pace->hits * 16 < pace->tried ? 15 * LINES_ROW_WINDOW : 0;
        pace->tried = pace->hits = 0;
    }
    return slot;
}

static void lines_rows_release(lines_row_slot *rows) {
    for (Py_ssize_t s = 0; rows != NULL && s < LINES_ROW_SLOTS; s++) Py_XDECREF(rows[s].value);
    PyMem_Free(rows);
}

static PyObject *lines_columns(PyObject *self, PyObject *args) {
    Py_buffer data;
    PyObject *chains, *fallback, *skip, *unread;
    int share = 0; /* equal short lines get one value (jq's values are never changed) */
    int keep = 1;  /* 0: each line's value let go once its chains are read (None kept) */
    if (!PyArg_ParseTuple(args, "y*O!OOO|pp", &data, &PyTuple_Type, &chains, &fallback, &skip,
                          &unread, &share, &keep))
        return NULL;
    lines_row_slot *shared = share ? PyMem_Calloc(LINES_ROW_SLOTS, sizeof(lines_row_slot))
                                   : NULL;
    const char *at = data.buf, *stop = at + data.len;
    Py_ssize_t newlines = 0, count = 0;
    for (const char *nl = at; (nl = memchr(nl, '\n', stop - nl)) != NULL; nl++) newlines++;
    Py_ssize_t k = PyTuple_GET_SIZE(chains), n = newlines + 1;
    PyObject *values = PyList_New(n), *made = PyTuple_New(k), *kinds = NULL, *distinct = NULL;
    long *bits = PyMem_Calloc(k + 1, sizeof(long));
    lines_reader r = {0};
    lines_row_pace pace = {0};
    r.slots = PyMem_Calloc(LINES_SLOTS, sizeof(lines_slot));
    r.keys = PyMem_Calloc(LINES_KEY_SLOTS, sizeof(lines_slot));
    r.rows = PyMem_Calloc(1, sizeof(rows_maker)); /* none: plain dicts */
    if (values == NULL || made == NULL || bits == NULL || r.slots == NULL || r.keys == NULL ||
        (share && shared == NULL))
        goto fail;
    if (!chains_checked(chains, 1)) goto fail;
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *column = PyList_New(n);
        if (column == NULL) goto fail;
        PyTuple_SET_ITEM(made, j, column);
    }
    lines_seed_keys(&r, chains);
    for (Py_ssize_t j = 0; j < k && r.heads < LINES_HEADS; j++) {
        PyObject *chain = PyTuple_GET_ITEM(chains, j);
        Py_ssize_t size;
        const char *text = PyTuple_GET_SIZE(chain) == 1
                               ? PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(chain, 0), &size)
                               : NULL;
        lines_slot *slot;
        PyObject *key = text == NULL ? NULL : lines_cached(&r, text, size, 's',
                                                           (lines_site *)&r, &slot);
        PyErr_Clear();
        if (key != NULL) { /* the key every line's member of that name gets: kept alive */
            r.head_keys[r.heads] = key;
            r.head_columns[r.heads++] = PyTuple_GET_ITEM(made, j);
        }
    }
    while (at < stop) {
        const char *nl = memchr(at, '\n', stop - at), *end = nl == NULL ? stop : nl;
        r.row = count;
        PyObject *v;
        lines_row_slot *slot = lines_row_paced(&pace, shared, at, end - at, &v);
        if (v == NULL) {
            v = lines_line(&r, at, end, fallback);
            if (v == NULL) goto fail;
            r.unsure |= r.declined && v != skip; /* orjson's strings: not the kept ones */
            if (slot != NULL && !r.declined) lines_row_keep(slot, at, end - at, v);
        }
        at = end + 1;
        if (v == skip) {
            Py_DECREF(v);
            continue;
        }
        PyList_SET_ITEM(values, count, v);
        for (Py_ssize_t j = 0; j < k; j++) {
            PyObject *chain = PyTuple_GET_ITEM(chains, j), *column = PyTuple_GET_ITEM(made, j);
            PyObject *found = PyList_GET_ITEM(column, count);
            if (found == NULL) { /* not set as the line was made: read on its value */
                found = chain_end(v, &PyTuple_GET_ITEM(chain, 0), PyTuple_GET_SIZE(chain),
                                  unread);
                if (found == NULL) goto fail;
                Py_INCREF(found);
                PyList_SET_ITEM(column, count, found);
            }
            bits[j] |= kind_of(found, unread);
        }
        if (!keep) { /* let go while its memory is still at hand */
            Py_INCREF(Py_None);
            PyList_SET_ITEM(values, count, Py_None);
            Py_DECREF(v);
        }
        if ((++count & 0xFFFF) == 0 && PyErr_CheckSignals() < 0) goto fail;
    }
    if (lines_shorten(values, count) < 0) goto fail;
    for (Py_ssize_t j = 0; j < k; j++)
        if (lines_shorten(PyTuple_GET_ITEM(made, j), count) < 0) goto fail;
    kinds = kinds_tuple(bits, k);
    if (kinds == NULL || (distinct = lines_distinct(&r, chains)) == NULL) goto fail;
    lines_release(&r);
    lines_rows_release(shared);
    PyMem_Free(bits);
    PyBuffer_Release(&data);
    return Py_BuildValue("(NnNNN)", values, newlines, made, kinds, distinct);
fail:
    lines_release(&r);
    lines_rows_release(shared);
    PyMem_Free(bits);
    Py_XDECREF(values);
    Py_XDECREF(made);
    Py_XDECREF(kinds);
    Py_XDECREF(distinct);
    PyBuffer_Release(&data);
    return NULL;
}
