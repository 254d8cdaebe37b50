/* JSON Lines held as spans of their text (linespans.py): line_spans checks in one pass that
 * each line holds one JSON value (a subset of what jq reads: whatever is unsure, invalid
 * UTF-8, a lone surrogate escape, raw control bytes, nesting past SPANS_DEPTH, is refused
 * with ValueError) and notes where each top-level member of a line's object lies; and
 * project_lines writes the lines of a block of the file again with only the members a
 * question asks, for _linesread.h's pass to decode as it decodes any line. A line that is
 * no object, or one whose members cannot be told apart by their keys' bytes (an escaped
 * key, a key met twice, more than SPANS_NAMES names in the file, a line past 16 MB) is
 * "odd": written again whole. Included once, by _jvbuild.c.
 */
#include <stdint.h>

#define SPANS_NAMES 4096
#define SPANS_SLOTS 8192 /* the names' hash table: a power of two, twice SPANS_NAMES */
#define SPANS_DEPTH 512
#define SPANS_START 0xFFFFFU   /* a member's start in its line: 20 bits */
#define SPANS_SIZE 0xFFFFFFULL /* a line's size, and the bytes before it since the last: 24 */
#define SPANS_MEMBERS 0x7FFF
#define SPANS_FORESEEN 64 /* members whose name is foreseen from the last line's */

/* A line holding a value, in 64 bits: its size, the bytes since the last such line's end
 * (its newline, blank lines), how many members it noted, whether it is odd. Its place is
 * known by reading the rows in order (project_lines). */
#define SPANS_ROW(size, gap, members, odd)                                   \
    ((uint64_t)(size) | (uint64_t)(gap) << 24 | (uint64_t)(members) << 48 | \
     (uint64_t)(odd) << 63)
#define SPANS_ROW_SIZE(row) ((Py_ssize_t)((row) & SPANS_SIZE))
#define SPANS_ROW_GAP(row) ((Py_ssize_t)((row) >> 24 & SPANS_SIZE))
#define SPANS_ROW_MEMBERS(row) ((Py_ssize_t)((row) >> 48 & SPANS_MEMBERS))
#define SPANS_ROW_ODD(row) ((int)((row) >> 63))

/* A member, in 32 bits: its name and where its value starts in the line (its end is
 * found again where it is written). */
#define SPANS_ENTRY(name, start) ((uint32_t)(name) << 20 | (uint32_t)(start))
#define SPANS_ENTRY_NAME(entry) ((Py_ssize_t)((entry) >> 20))
#define SPANS_ENTRY_START(entry) ((Py_ssize_t)((entry) & SPANS_START))

typedef struct {
    const unsigned char *at, *end;
    int depth;
} spans_scan;

typedef struct {
    const char *text;
    Py_ssize_t size;
    Py_ssize_t seen; /* the last row that held it: a second time makes the row odd */
} spans_name;

typedef struct {
    spans_name names[SPANS_NAMES];
    int count;
    int slots[SPANS_SLOTS]; /* name + 1; 0: empty */
    int foreseen[SPANS_FORESEEN]; /* the last object's name at each place, -1: none */
} spans_names;

/* Growing bytes: a PyBytes resized in place as it fills, or (bytes NULL) a raw buffer
 * that fills without the GIL (project_lines), made bytes at the end. */
typedef struct {
    PyObject *bytes;
    Py_ssize_t used;
    unsigned char *raw;
    Py_ssize_t room;
} spans_out;

static int spans_reserve(spans_out *out, Py_ssize_t more) {
    Py_ssize_t have = out->bytes != NULL ? PyBytes_GET_SIZE(out->bytes) : out->room;
    if (out->used + more <= have) return 1;
    Py_ssize_t size = have * 2 > out->used + more ? have * 2 : out->used + more + 4096;
    if (out->bytes != NULL) return _PyBytes_Resize(&out->bytes, size) == 0;
    unsigned char *grown = PyMem_RawRealloc(out->raw, size); /* no error set: no GIL */
    if (grown == NULL) return 0;
    out->raw = grown;
    out->room = size;
    return 1;
}

static int spans_put(spans_out *out, const void *data, Py_ssize_t size) {
    if (!spans_reserve(out, size)) return 0;
    memcpy((out->bytes != NULL ? (unsigned char *)PyBytes_AS_STRING(out->bytes) : out->raw) +
               out->used,
           data, size);
    out->used += size;
    return 1;
}

static PyObject *spans_done(spans_out *out) {
    if (out->bytes == NULL) {
        PyObject *bytes = PyBytes_FromStringAndSize((const char *)out->raw, out->used);
        PyMem_RawFree(out->raw);
        out->raw = NULL;
        return bytes;
    }
    if (_PyBytes_Resize(&out->bytes, out->used) < 0) return NULL;
    PyObject *bytes = out->bytes;
    out->bytes = NULL;
    return bytes;
}

static void spans_space(spans_scan *s) {
    while (s->at < s->end && (*s->at == ' ' || *s->at == '\t' || *s->at == '\r')) s->at++;
}

static int spans_hex(const unsigned char *p, const unsigned char *end) {
    if (end - p < 4) return -1;
    int code = 0;
    for (int i = 0; i < 4; i++) {
        int c = p[i], d = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
        if (d < 0) return -1;
        code = code * 16 + d;
    }
    return code;
}

/* One UTF-8 sequence of 2-4 bytes, well formed (no overlong form, no surrogate). */
static int spans_utf8(const unsigned char **pp, const unsigned char *end) {
    const unsigned char *p = *pp;
    unsigned c = p[0], lo = 0x80, hi = 0xBF;
    int more;
    if (c >= 0xC2 && c <= 0xDF) more = 1;
    else if (c >= 0xE0 && c <= 0xEF) {
        more = 2;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        more = 3;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else
        return 0;
    if (end - p <= more || p[1] < lo || p[1] > hi) return 0;
    for (int i = 2; i <= more; i++)
        if ((p[i] & 0xC0) != 0x80) return 0;
    *pp = p + more + 1;
    return 1;
}

/* A string's rest (its opening quote read); *escaped set where it holds a backslash. */
static int spans_string(spans_scan *s, int *escaped) {
    const unsigned char *p = s->at, *end = s->end;
    for (;;) {
        while (end - p >= 8) {
            uint64_t w;
            memcpy(&w, p, 8);
            if (!lines_plain8(w)) break;
            p += 8;
        }
        if (p >= end) return 0;
        unsigned c = *p;
        if (c == '"') {
            s->at = p + 1;
            return 1;
        }
        if (c == '\\') {
            *escaped = 1;
            if (++p >= end) return 0;
            if (strchr("\"\\/bfnrt", *p) != NULL && *p != 0) {
                p++;
                continue;
            }
            if (*p != 'u') return 0;
            int code = spans_hex(p + 1, end);
            p += 5;
            if (code >= 0xDC00 && code <= 0xDFFF) return 0; /* a lone low surrogate */
            if (code >= 0xD800 && code <= 0xDBFF) {         /* its low half must follow */
                if (end - p < 6 || p[0] != '\\' || p[1] != 'u') return 0;
                int low = spans_hex(p + 2, end);
                if (low < 0xDC00 || low > 0xDFFF) return 0;
                p += 6;
            } else if (code < 0)
                return 0;
            continue;
        }
        if (c < 0x20) return 0;
        if (c < 0x80) {
            p++;
            continue;
        }
        if (!spans_utf8(&p, end)) return 0;
    }
}

static int spans_digits(spans_scan *s) {
    const unsigned char *from = s->at;
    while (s->at < s->end && *s->at >= '0' && *s->at <= '9') s->at++;
    return s->at > from;
}

static int spans_number(spans_scan *s) {
    if (*s->at == '-') s->at++;
    if (s->at < s->end && *s->at == '0')
        s->at++;
    else if (!(s->at < s->end && *s->at >= '1' && *s->at <= '9') || !spans_digits(s))
        return 0;
    if (s->at < s->end && *s->at == '.') {
        s->at++;
        if (!spans_digits(s)) return 0;
    }
    if (s->at < s->end && (*s->at == 'e' || *s->at == 'E')) {
        s->at++;
        if (s->at < s->end && (*s->at == '+' || *s->at == '-')) s->at++;
        if (!spans_digits(s)) return 0;
    }
    return 1;
}

static int spans_word(spans_scan *s, const char *word, Py_ssize_t size) {
    if (s->end - s->at < size || memcmp(s->at, word, size) != 0) return 0;
    s->at += size;
    return 1;
}

/* After a member: 1 at a comma (the next member's start reached), 0 at `close` (passed),
 * -1 at anything else. */
static int spans_next(spans_scan *s, unsigned char close) {
    spans_space(s);
    if (s->at >= s->end) return -1;
    if (*s->at == ',') {
        s->at++;
        spans_space(s);
        return 1;
    }
    if (*s->at != close) return -1;
    s->at++;
    return 0;
}

static int spans_value(spans_scan *s);

/* An array or an object (at its opening bracket), every member checked. */
static int spans_container(spans_scan *s, unsigned char close) {
    if (++s->depth > SPANS_DEPTH) return 0;
    s->at++;
    spans_space(s);
    if (s->at < s->end && *s->at == close) {
        s->at++;
        s->depth--;
        return 1;
    }
    for (;;) {
        if (close == '}') {
            int escaped = 0;
            if (s->at >= s->end || *s->at != '"') return 0;
            s->at++;
            if (!spans_string(s, &escaped)) return 0;
            spans_space(s);
            if (s->at >= s->end || *s->at != ':') return 0;
            s->at++;
            spans_space(s);
        }
        if (!spans_value(s)) return 0;
        int more = spans_next(s, close);
        if (more < 0) return 0;
        if (!more) {
            s->depth--;
            return 1;
        }
    }
}

static int spans_value(spans_scan *s) {
    if (s->at >= s->end) return 0;
    switch (*s->at) {
    case '{': return spans_container(s, '}');
    case '[': return spans_container(s, ']');
    case '"': {
        int escaped = 0;
        s->at++;
        return spans_string(s, &escaped);
    }
    case 't': return spans_word(s, "true", 4);
    case 'f': return spans_word(s, "false", 5);
    case 'n': return spans_word(s, "null", 4);
    default:
        return (*s->at == '-' || (*s->at >= '0' && *s->at <= '9')) && spans_number(s);
    }
}

/* The name of a key's bytes (added when new; -1: SPANS_NAMES are known already). */
static int spans_name_of(spans_names *t, const char *text, Py_ssize_t size, int place) {
    if (place < SPANS_FORESEEN) {
        int guess = t->foreseen[place];
        if (guess >= 0 && t->names[guess].size == size &&
            memcmp(t->names[guess].text, text, size) == 0)
            return guess;
    }
    uint64_t h = (uint64_t)lines_hash(text, size, 'k');
    for (uint64_t i = h & (SPANS_SLOTS - 1);; i = (i + 1) & (SPANS_SLOTS - 1)) {
        int at = t->slots[i] - 1;
        if (at < 0) {
            if (t->count == SPANS_NAMES) return -1;
            at = t->count++;
            t->names[at] = (spans_name){text, size, -1};
            t->slots[i] = at + 1;
        } else if (t->names[at].size != size || memcmp(t->names[at].text, text, size) != 0)
            continue;
        if (place < SPANS_FORESEEN) t->foreseen[place] = at;
        return at;
    }
}

/* A line's object (at its brace): its members noted in entries, unless the row is odd. */
static int spans_object(spans_scan *s, spans_names *t, spans_out *entries, int *odd,
                        Py_ssize_t *members, Py_ssize_t index, const unsigned char *line) {
    Py_ssize_t first = entries->used;
    s->depth = 1;
    s->at++;
    spans_space(s);
    if (s->at < s->end && *s->at == '}') {
        s->at++;
        return 1;
    }
    for (int place = 0;; place++) {
        int escaped = 0;
        if (s->at >= s->end || *s->at != '"') return 0;
        const unsigned char *key = ++s->at;
        if (!spans_string(s, &escaped)) return 0;
        Py_ssize_t key_size = s->at - 1 - key;
        spans_space(s);
        if (s->at >= s->end || *s->at != ':') return 0;
        s->at++;
        spans_space(s);
        const unsigned char *value = s->at;
        if (!spans_value(s)) return 0;
        Py_ssize_t start = value - line;
        if (!*odd) {
            int name = escaped ? -1 : spans_name_of(t, (const char *)key, key_size, place);
            if (name < 0 || t->names[name].seen == index || start > (Py_ssize_t)SPANS_START ||
                *members == SPANS_MEMBERS) {
                *odd = 1; /* told apart only by its decoded keys: written whole */
                entries->used = first;
                *members = 0;
            } else {
                uint32_t entry = SPANS_ENTRY(name, start);
                t->names[name].seen = index;
                if (!spans_put(entries, &entry, sizeof entry)) return -1;
                ++*members;
            }
        }
        int more = spans_next(s, '}');
        if (more <= 0) return more == 0;
    }
}

static PyObject *line_spans(PyObject *self, PyObject *args) {
    Py_buffer data;
    if (!PyArg_ParseTuple(args, "y*", &data)) return NULL;
    const unsigned char *at = data.buf, *stop = at + data.len;
    spans_names *t = PyMem_Calloc(1, sizeof(spans_names));
    spans_out rows = {PyBytes_FromStringAndSize(NULL, 1 << 16), 0, NULL, 0};
    spans_out entries = {PyBytes_FromStringAndSize(NULL, 1 << 16), 0, NULL, 0};
    PyObject *names = NULL;
    Py_ssize_t newlines = 0, count = 0;
    const unsigned char *last_end = at; /* the last row's end: its newline is in the gap */
    if (t == NULL || rows.bytes == NULL || entries.bytes == NULL) goto fail;
    memset(t->foreseen, -1, sizeof t->foreseen);
    while (at < stop) {
        const unsigned char *nl = memchr(at, '\n', stop - at), *end = nl == NULL ? stop : nl;
        spans_scan s = {at, end, 0};
        spans_space(&s);
        if (s.at < end) {
            int found, is_odd = 0;
            Py_ssize_t members = 0;
            if (end - at > (Py_ssize_t)SPANS_SIZE || at - last_end > (Py_ssize_t)SPANS_SIZE)
                goto refused; /* a line past 16 MB, or 16 MB of blank lines before it */
            if (*s.at == '{') {
                found = spans_object(&s, t, &entries, &is_odd, &members, count, at);
                if (found < 0) goto fail;
            } else {
                is_odd = 1;
                found = spans_value(&s);
            }
            spans_space(&s);
            if (!found || s.at != end) goto refused;
            uint64_t row = SPANS_ROW(end - at, at - last_end, members, is_odd);
            if (!spans_put(&rows, &row, sizeof row)) goto fail;
            last_end = end;
            count++;
        }
        if (nl == NULL) break;
        newlines++;
        at = nl + 1;
        if ((newlines & 0xFFFF) == 0 && PyErr_CheckSignals() < 0) goto fail;
    }
    if ((names = PyList_New(t->count)) == NULL) goto fail;
    for (int i = 0; i < t->count; i++) {
        PyObject *name = PyBytes_FromStringAndSize(t->names[i].text, t->names[i].size);
        if (name == NULL) goto fail;
        PyList_SET_ITEM(names, i, name);
    }
    PyMem_Free(t);
    PyBuffer_Release(&data);
    PyObject *rows_done = spans_done(&rows), *entries_done = spans_done(&entries);
    if (rows_done == NULL || entries_done == NULL) {
        Py_XDECREF(rows_done);
        Py_XDECREF(entries_done);
        Py_DECREF(names);
        return NULL;
    }
    return Py_BuildValue("(NNNnn)", rows_done, entries_done, names, count, newlines);
refused:
    PyErr_Format(PyExc_ValueError, "line %zd is not one JSON value this pass reads",
                 newlines + 1);
fail:
    PyMem_Free(t);
    Py_XDECREF(rows.bytes);
    Py_XDECREF(entries.bytes);
    Py_XDECREF(names);
    PyBuffer_Release(&data);
    return NULL;
}

/* A member's object written again with only the members `keys` names (bytes, in the order
 * the object holds them); the whole value where it is no object, where a key is escaped
 * (told apart only decoded) or met twice, or past 64 keys or members kept. */
static int spans_part(spans_out *out, const unsigned char *value, Py_ssize_t size,
                      PyObject *keys) {
    Py_ssize_t wanted = PyTuple_GET_SIZE(keys);
    struct {
        const unsigned char *key, *value;
        Py_ssize_t key_size, value_size;
    } kept[64];
    int count = 0;
    uint64_t met = 0;
    spans_scan s = {value, value + size, 0};
    if (size == 0 || *value != '{' || wanted > 64) return spans_put(out, value, size);
    s.depth = 1;
    s.at++;
    spans_space(&s);
    while (s.at < s.end && *s.at != '}') {
        int escaped = 0;
        if (*s.at != '"') return spans_put(out, value, size);
        const unsigned char *key = ++s.at;
        if (!spans_string(&s, &escaped) || escaped) return spans_put(out, value, size);
        Py_ssize_t key_size = s.at - 1 - key;
        spans_space(&s);
        if (s.at >= s.end || *s.at != ':') return spans_put(out, value, size);
        s.at++;
        spans_space(&s);
        const unsigned char *member = s.at;
        if (!spans_value(&s)) return spans_put(out, value, size);
        for (Py_ssize_t k = 0; k < wanted; k++) {
            PyObject *name = PyTuple_GET_ITEM(keys, k);
            if (PyBytes_GET_SIZE(name) != key_size ||
                memcmp(PyBytes_AS_STRING(name), key, key_size) != 0)
                continue;
            if (met >> k & 1 || count == 64) return spans_put(out, value, size);
            met |= 1ULL << k;
            kept[count].key = key;
            kept[count].key_size = key_size;
            kept[count].value = member;
            kept[count++].value_size = s.at - member;
            break;
        }
        spans_space(&s);
        if (s.at < s.end && *s.at == ',') {
            s.at++;
            spans_space(&s);
        }
    }
    if (!spans_put(out, "{", 1)) return 0;
    for (int m = 0; m < count; m++)
        if (!spans_put(out, m ? ",\"" : "\"", m ? 2 : 1) ||
            !spans_put(out, kept[m].key, kept[m].key_size) || !spans_put(out, "\":", 2) ||
            !spans_put(out, kept[m].value, kept[m].value_size))
            return 0;
    return spans_put(out, "}", 1);
}

#define SPANS_BLANK(c) ((c) == ' ' || (c) == '\t' || (c) == '\r')

/* Where the value of a member starting at `from` ends, found back from what follows it
 * without reading the value: the next member's key (its value at `next`, its key
 * `key_size` bytes: keys of rows that are not odd are never escaped) or, for the last
 * (`next` < 0), the line's closing brace; 0 where the bytes are not so (it is read). */
static Py_ssize_t spans_value_end(const unsigned char *line, Py_ssize_t size, Py_ssize_t from,
                                  Py_ssize_t next, Py_ssize_t key_size) {
    Py_ssize_t at = next < 0 ? size : next;
    if (at > size || (next >= 0 && (next <= from || key_size < 0))) return 0;
    while (at > from && SPANS_BLANK(line[at - 1])) at--;
    if (next < 0) {
        if (at <= from || line[at - 1] != '}') return 0;
        at--;
    } else {
        if (at <= from || line[at - 1] != ':') return 0;
        at--;
        while (at > from && SPANS_BLANK(line[at - 1])) at--;
        if (at - from < key_size + 3 || line[at - 1] != '"' || line[at - key_size - 2] != '"')
            return 0;
        at -= key_size + 2;
        while (at > from && SPANS_BLANK(line[at - 1])) at--;
        if (at <= from || line[at - 1] != ',') return 0;
        at--;
    }
    while (at > from && SPANS_BLANK(line[at - 1])) at--;
    return at > from ? at : 0;
}

/* The lines of a block of the file (its text from offset base) from row `row` (its entries
 * from `entry`, the last row's end at `end`) on, written again: an odd row whole, any other
 * as an object of the members whose name `wanted` marks (1: whole; 2: an object with only
 * the members `parts` names for it, spans_part), in their order; (text, next row, next
 * entry, its line's start) once a row lies past the block or the rows end. The GIL is let
 * go while the lines are written (threads write parts of the file at once: linespans.py). */
static PyObject *project_lines(PyObject *self, PyObject *args) {
    Py_buffer block, rows, entries, wanted;
    PyObject *names, *parts;
    unsigned long long base, end;
    Py_ssize_t row, entry;
    if (!PyArg_ParseTuple(args, "y*Ky*y*nnKO!y*O!", &block, &base, &rows, &entries, &row,
                          &entry, &end, &PyTuple_Type, &names, &wanted, &PyTuple_Type, &parts))
        return NULL;
    const uint64_t *all = rows.buf;
    const uint32_t *members = entries.buf;
    const unsigned char *mask = wanted.buf, *text = block.buf;
    Py_ssize_t count = rows.len / (Py_ssize_t)sizeof(uint64_t);
    Py_ssize_t known = entries.len / (Py_ssize_t)sizeof(uint32_t);
    spans_out out = {NULL, 0, PyMem_RawMalloc(block.len / 4 + 4096), block.len / 4 + 4096};
    PyObject *done = NULL;
    const char *odd = NULL; /* what went wrong, said once the GIL is held again */
    int typed = PyTuple_GET_SIZE(names) >= wanted.len && PyTuple_GET_SIZE(parts) >= wanted.len;
    for (Py_ssize_t n = 0; typed && n < wanted.len; n++) {
        PyObject *part = PyTuple_GET_ITEM(parts, n);
        typed = PyBytes_Check(PyTuple_GET_ITEM(names, n)) && (mask[n] != 2 || PyTuple_Check(part));
        for (Py_ssize_t k = 0; typed && mask[n] == 2 && k < PyTuple_GET_SIZE(part); k++)
            typed = PyBytes_Check(PyTuple_GET_ITEM(part, k));
    }
    if (!typed) {
        PyErr_SetString(PyExc_TypeError, "names are bytes, parts tuples of bytes");
        goto end;
    }
    if (out.raw == NULL) {
        PyErr_NoMemory();
        goto end;
    }
    Py_BEGIN_ALLOW_THREADS
    for (; row < count && odd == NULL; row++) {
        uint64_t r = all[row], start = end + SPANS_ROW_GAP(r);
        Py_ssize_t size = SPANS_ROW_SIZE(r), many = SPANS_ROW_MEMBERS(r);
        if (start < base || start + size > base + (uint64_t)block.len) break;
        const unsigned char *line = text + (start - base);
        end = start + size;
        if (SPANS_ROW_ODD(r)) {
            if (!spans_put(&out, line, size) || !spans_put(&out, "\n", 1)) odd = "";
            continue;
        }
        if (entry + many > known) {
            odd = "the spans end before their rows";
            break;
        }
        int first = 1;
        if (!spans_put(&out, "{", 1)) odd = "";
        for (Py_ssize_t m = 0; m < many && odd == NULL; m++) {
            uint32_t e = members[entry + m];
            Py_ssize_t name = SPANS_ENTRY_NAME(e), from = SPANS_ENTRY_START(e);
            if (name >= wanted.len || !mask[name]) continue;
            Py_ssize_t next = m + 1 < many ? SPANS_ENTRY_NAME(members[entry + m + 1]) : -1;
            Py_ssize_t value = from < size ? spans_value_end(
                line, size, from, next < 0 ? -1 : SPANS_ENTRY_START(members[entry + m + 1]),
                next >= 0 && next < PyTuple_GET_SIZE(names)
                    ? PyBytes_GET_SIZE(PyTuple_GET_ITEM(names, next)) : -1) - from : 0;
            spans_scan s = {line + from, line + size, 0};
            if (value <= 0 && (from >= size || !spans_value(&s))) {
                odd = "a span that is no value of its line";
                break;
            }
            if (value <= 0) value = s.at - (line + from);
            PyObject *key = PyTuple_GET_ITEM(names, name), *part = PyTuple_GET_ITEM(parts, name);
            if (!spans_put(&out, first ? "\"" : ",\"", first ? 1 : 2) ||
                !spans_put(&out, PyBytes_AS_STRING(key), PyBytes_GET_SIZE(key)) ||
                !spans_put(&out, "\":", 2) ||
                !(mask[name] == 2 ? spans_part(&out, line + from, value, part)
                                  : spans_put(&out, line + from, value)))
                odd = "";
            first = 0;
        }
        entry += many;
        if (odd == NULL && !spans_put(&out, "}\n", 2)) odd = "";
    }
    Py_END_ALLOW_THREADS
    if (odd != NULL && *odd)
        PyErr_SetString(PyExc_ValueError, odd);
    else if (odd != NULL)
        PyErr_NoMemory();
    else {
        PyObject *made = spans_done(&out);
        if (made != NULL) done = Py_BuildValue("(NnnK)", made, row, entry, end);
    }
end:
    PyMem_RawFree(out.raw);
    PyBuffer_Release(&block);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&entries);
    PyBuffer_Release(&wanted);
    return done;
}

/* Where each of the rows `cuts` (in order) starts reading: [(its first entry, the end of
 * the row before it)]. */
static PyObject *seek_rows(PyObject *self, PyObject *args) {
    Py_buffer rows;
    PyObject *cuts;
    if (!PyArg_ParseTuple(args, "y*O!", &rows, &PyTuple_Type, &cuts)) return NULL;
    const uint64_t *all = rows.buf;
    Py_ssize_t count = rows.len / (Py_ssize_t)sizeof(uint64_t), entry = 0, row = 0;
    uint64_t end = 0;
    PyObject *found = PyList_New(0);
    for (Py_ssize_t c = 0; found != NULL && c < PyTuple_GET_SIZE(cuts); c++) {
        Py_ssize_t cut = PyLong_AsSsize_t(PyTuple_GET_ITEM(cuts, c));
        if (cut == -1 && PyErr_Occurred()) {
            Py_CLEAR(found);
            break;
        }
        for (; row < cut && row < count; row++) {
            end += SPANS_ROW_GAP(all[row]) + SPANS_ROW_SIZE(all[row]);
            entry += SPANS_ROW_ODD(all[row]) ? 0 : SPANS_ROW_MEMBERS(all[row]);
        }
        PyObject *at = Py_BuildValue("(nK)", entry, (unsigned long long)end);
        if (at == NULL || PyList_Append(found, at) < 0) Py_CLEAR(found);
        Py_XDECREF(at);
    }
    PyBuffer_Release(&rows);
    return found;
}

/* The items of list `src` moved into list `dst` from `at` on (where dst holds None), src
 * left empty: no object's count touched (a piece's rows joined to the others': a pass that
 * counts each again costs a cache miss an object, and another when the piece is freed). */
static PyObject *moved_items(PyObject *self, PyObject *args) {
    PyObject *dst, *src;
    Py_ssize_t at;
    if (!PyArg_ParseTuple(args, "O!nO!", &PyList_Type, &dst, &at, &PyList_Type, &src))
        return NULL;
    Py_ssize_t many = PyList_GET_SIZE(src);
    if (dst == src || at < 0 || at > PyList_GET_SIZE(dst) - many) {
        PyErr_SetString(PyExc_ValueError, "the items do not fit there");
        return NULL;
    }
    PyObject **to = ((PyListObject *)dst)->ob_item + at, **from = ((PyListObject *)src)->ob_item;
    for (Py_ssize_t i = 0; i < many; i++)
        if (to[i] != Py_None) {
            PyErr_SetString(PyExc_ValueError, "the places are not all None");
            return NULL;
        }
    for (Py_ssize_t i = 0; i < many; i++) Py_DECREF(Py_None);
    memcpy(to, from, many * sizeof(PyObject *));
    Py_SET_SIZE(src, 0); /* its items are dst's now; its array is freed with it */
    Py_RETURN_NONE;
}
