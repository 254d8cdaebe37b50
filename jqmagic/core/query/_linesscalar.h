/* The pieces of _linesread.h's pass that read one string or number (and its reader's
 * state): each text looked up first in a direct-mapped cache keyed by its bytes as
 * written, per member switched off once its values are found to repeat too little; a
 * float's double rounded exactly as orjson's (Clinger's fast path, else Python's strtod);
 * whatever orjson might read otherwise declined to the caller's fallback. Included once,
 * by _linesread.h.
 */
#include "_linesrows.h" /* rows_maker: the top-level objects' dicts sharing keys */

#define LINES_DEPTH 64
#define LINES_SLOTS 8192 /* the values' cache's slots: a power of two */
#define LINES_KEY_SLOTS 512
#define LINES_SITES 256   /* members whose values are looked up: a power of two */
#define LINES_TRIAL 1024  /* a member's values looked up before its hits are judged */
#define LINES_CACHED 40   /* texts longer than this are made afresh */
#define LINES_HEADS 32    /* chains of one name whose column is set as a line is made */
#define LINES_KEPT 1024   /* a member's distinct strings kept one object each, at most */
#define LINES_KEPT_SIZE 256 /* and their longest text */
#define LINES_ORDER 32     /* an object's members whose keys are foreseen (lines_key) */

/* A member's strings met so far, by their text (UTF-8, unescaped): each one object. */
typedef struct {
    Py_hash_t hash;
    Py_ssize_t size;
    char *text;      /* owned */
    PyObject *value; /* owned; NULL: an empty place */
} lines_kept;

typedef struct {
    Py_hash_t hash;
    Py_ssize_t size;
    char text[LINES_CACHED];
    PyObject *value; /* owned; NULL: an empty slot */
} lines_slot;

/* A member's values (by its key's object): looked up in the cache until they are found
 * to repeat too little (ids, timestamps), then made afresh. */
typedef struct {
    PyObject *key; /* borrowed: kept alive by the keys' cache or a value */
    long looked, hits;
    int off;
    Py_ssize_t members; /* the last object's: the next is made that size at once */
    lines_kept *kept;   /* its strings, while they are LINES_KEPT or fewer (see lines_own) */
    Py_ssize_t distinct;
    int unkept;         /* more than LINES_KEPT: made as any other text */
    struct lines_next *order; /* its objects' keys, as the last one held them (lines_key) */
} lines_site;

/* The key an object's member at a place had last time (owned; plain ASCII) and its site. */
typedef struct lines_next {
    PyObject *key;
    lines_site *site;
} lines_next;

typedef struct {
    const char *at, *end;
    lines_slot *slots;
    char *scratch; /* an escaped string's bytes */
    Py_ssize_t scratch_size;
    lines_slot *keys;
    lines_site sites[LINES_SITES], root;
    Py_hash_t hash; /* the text last looked up in the cache */
    int declined;   /* the line is the fallback's: no exception set */
    /* a line's members that are columns' chains, set as the line's object is made */
    int heads;
    PyObject *head_keys[LINES_HEADS], *head_columns[LINES_HEADS]; /* keys owned */
    Py_ssize_t row;
    rows_maker *rows; /* the top-level objects' dicts (NULL: plain dicts) */
    int unsure; /* a site taken over, or a line the fallback read: no site's strings are
                 * known to be one object each */
} lines_reader;

static PyObject *lines_value(lines_reader *r, int depth, lines_site *site);

static PyObject *lines_decline(lines_reader *r) {
    r->declined = 1;
    return NULL;
}

static void lines_space(lines_reader *r) {
    while (r->at < r->end && (*r->at == ' ' || *r->at == '\t' || *r->at == '\r'))
        r->at++;
}

static uint64_t lines_word8(const char *p, Py_ssize_t size) {
    uint64_t w = 0;
    if (size >= 8) {
        memcpy(&w, p, 8);
    } else {
        for (Py_ssize_t i = 0; i < size; i++) w |= (uint64_t)(unsigned char)p[i] << (8 * i);
    }
    return w;
}

/* A hash of a text's first and last eight bytes and its size: enough to tell a line's
 * keys and repeated values apart (the slot's text is compared whole). */
static Py_hash_t lines_hash(const char *text, Py_ssize_t size, int tag) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)size << 8) ^ (uint64_t)tag;
    h = (h ^ lines_word8(text, size)) * 0xFF51AFD7ED558CCDULL;
    if (size > 8) h = (h ^ (h >> 29) ^ lines_word8(text + size - 8, 8)) * 0xC4CEB9FE1A85EC53ULL;
    return (Py_hash_t)(h ^ (h >> 32));
}

/* Whether a word of 8 bytes holds a quote, a backslash, a control or a non-ASCII byte. */
static int lines_plain8(uint64_t w) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t quote = w ^ (ones * '"'), slash = w ^ (ones * '\\');
    uint64_t special = ((quote - ones) & ~quote) | ((slash - ones) & ~slash) |
                       (w - ones * 0x20) | w;
    return (special & highs) == 0;
}

/* The cached value of a text (tag: 's' a string's raw bytes, 'n' a number's), or NULL with
 * *slot set where a new one is to go (NULL: not cached). */
static PyObject *lines_cached(lines_reader *r, const char *text, Py_ssize_t size, int tag,
                              lines_site *site, lines_slot **slot) {
    *slot = NULL;
    int member = site != NULL && site != (lines_site *)r; /* not a key, not the root */
    if (size >= LINES_CACHED || (member && site->off)) return NULL;
    Py_hash_t h = lines_hash(text, size, tag);
    lines_slot *s = site == (lines_site *)r ? &r->keys[(Py_uhash_t)h & (LINES_KEY_SLOTS - 1)]
                                           : &r->slots[(Py_uhash_t)h & (LINES_SLOTS - 1)];
    int hit = s->value != NULL && s->hash == h && s->size == size &&
              memcmp(s->text, text, size) == 0 && s->text[size] == (char)tag;
    if (member && ++site->looked <= LINES_TRIAL) {
        site->hits += hit;
        if (site->looked == LINES_TRIAL && site->hits * 4 < LINES_TRIAL) site->off = 1;
    }
    if (hit) {
        Py_INCREF(s->value);
        return s->value;
    }
    *slot = s;
    r->hash = h;
    return NULL;
}

static PyObject *lines_keep(lines_reader *r, lines_slot *slot, const char *text,
                            Py_ssize_t size, int tag, PyObject *value) {
    if (slot != NULL && value != NULL) {
        Py_INCREF(value);
        Py_XSETREF(slot->value, value);
        slot->hash = r->hash;
        slot->size = size;
        memcpy(slot->text, text, size);
        slot->text[size] = (char)tag;
    }
    return value;
}

static int lines_hex(const char *p) {
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
        else return -1;
    }
    return v;
}

/* An escaped string's bytes unescaped into the scratch buffer (UTF-8); -1: declined. */
static Py_ssize_t lines_unescape(lines_reader *r, const char *p, const char *end) {
    if (r->scratch_size < end - p) {
        char *grown = PyMem_Realloc(r->scratch, end - p);
        if (grown == NULL) return -2;
        r->scratch = grown;
        r->scratch_size = end - p;
    }
    char *out = r->scratch;
    while (p < end) {
        if (*p != '\\') {
            *out++ = *p++;
            continue;
        }
        char c = p[1];
        p += 2;
        switch (c) {
        case '"': *out++ = '"'; break;
        case '\\': *out++ = '\\'; break;
        case '/': *out++ = '/'; break;
        case 'b': *out++ = '\b'; break;
        case 'f': *out++ = '\f'; break;
        case 'n': *out++ = '\n'; break;
        case 'r': *out++ = '\r'; break;
        case 't': *out++ = '\t'; break;
        case 'u': {
            int u = end - p >= 4 ? lines_hex(p) : -1;
            if (u < 0 || (u >= 0xD800 && u <= 0xDFFF)) return -1; /* orjson's to judge */
            p += 4;
            if (u < 0x80) {
                *out++ = (char)u;
            } else if (u < 0x800) {
                *out++ = (char)(0xC0 | (u >> 6));
                *out++ = (char)(0x80 | (u & 0x3F));
            } else {
                *out++ = (char)(0xE0 | (u >> 12));
                *out++ = (char)(0x80 | ((u >> 6) & 0x3F));
                *out++ = (char)(0x80 | (u & 0x3F));
            }
            break;
        }
        default: return -1;
        }
    }
    return out - r->scratch;
}

static void lines_forget_order(lines_site *site) {
    for (int i = 0; site->order != NULL && i < LINES_ORDER; i++) Py_XDECREF(site->order[i].key);
    PyMem_Free(site->order);
    site->order = NULL;
}

static void lines_unkeep(lines_site *site) {
    for (Py_ssize_t i = 0; site->kept != NULL && i < 2 * LINES_KEPT; i++) {
        Py_XDECREF(site->kept[i].value);
        PyMem_Free(site->kept[i].text);
    }
    PyMem_Free(site->kept);
    site->kept = NULL;
}

/* A member's string of this text (UTF-8), one object for each distinct text the member
 * holds (a log's kinds, cities, names: a column of them is shared from its first read,
 * see columns.adopted); NULL with *place set where a new one goes (NULL: not kept). */
static PyObject *lines_own(lines_site *site, const char *text, Py_ssize_t size,
                           lines_kept **place) {
    *place = NULL;
    if (site->kept == NULL) {
        site->kept = PyMem_Calloc(2 * LINES_KEPT, sizeof(lines_kept));
        if (site->kept == NULL) {
            site->unkept = 1;
            return NULL;
        }
    }
    if (size > LINES_KEPT_SIZE) { /* long texts: made afresh, the member's no longer kept */
        lines_unkeep(site);
        site->unkept = 1;
        return NULL;
    }
    uint64_t w = 0x9E3779B97F4A7C15ULL ^ (uint64_t)size;
    for (Py_ssize_t at = 0; at < size; at += 8)
        w = (w ^ lines_word8(text + at, size - at)) * 0xFF51AFD7ED558CCDULL;
    Py_hash_t h = (Py_hash_t)(w ^ (w >> 29));
    for (Py_uhash_t i = (Py_uhash_t)h;; i++) {
        lines_kept *k = &site->kept[i & (2 * LINES_KEPT - 1)];
        if (k->value == NULL) {
            *place = k;
            k->hash = h;
            return NULL;
        }
        if (k->hash == h && k->size == size && memcmp(k->text, text, size) == 0) {
            Py_INCREF(k->value);
            return k->value;
        }
    }
}

/* A new string kept at its place (past LINES_KEPT the member's strings are not kept). */
static PyObject *lines_put(lines_site *site, lines_kept *place, const char *text,
                           Py_ssize_t size, PyObject *value) {
    if (place == NULL || value == NULL) return value;
    if (site->distinct == LINES_KEPT) {
        lines_unkeep(site);
        site->unkept = 1;
        return value;
    }
    place->text = PyMem_Malloc(size + 1);
    if (place->text == NULL) {
        Py_DECREF(value);
        return PyErr_NoMemory();
    }
    memcpy(place->text, text, size);
    place->size = size;
    Py_INCREF(value);
    place->value = value;
    site->distinct++;
    return value;
}

/* A string (a member's key when site is the reader itself: the keys' own cache). */
static PyObject *lines_string(lines_reader *r, lines_site *site) {
    const char *start = ++r->at, *p = start;
    int escaped = 0, ascii = 1;
    while (r->end - p >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        if (!lines_plain8(w)) break;
        p += 8;
    }
    for (;; p++) {
        if (p >= r->end) return lines_decline(r);
        unsigned char c = (unsigned char)*p;
        if (c == '"') break;
        if (c < 0x20) return lines_decline(r);
        if (c == '\\') {
            escaped = 1;
            if (++p >= r->end) return lines_decline(r);
        }
        ascii &= c < 0x80;
    }
    r->at = p + 1;
    const char *text = start;
    Py_ssize_t size = p - start;
    if (escaped) {
        size = lines_unescape(r, start, p);
        if (size == -2) return PyErr_NoMemory();
        if (size < 0) return lines_decline(r);
        text = r->scratch;
    }
    lines_slot *slot = NULL;
    lines_kept *place = NULL;
    int owned = site != NULL && site != (lines_site *)r && !site->unkept;
    PyObject *v = owned ? lines_own(site, text, size, &place)
                        : lines_cached(r, start, p - start, 's', site, &slot);
    if (v != NULL) return v;
    if (!escaped && ascii) {
        v = PyUnicode_New(size, 127);
        if (v != NULL) memcpy(PyUnicode_DATA(v), text, size);
    } else {
        v = PyUnicode_DecodeUTF8(text, size, NULL);
        if (v == NULL) {
            if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) return NULL;
            PyErr_Clear();
            return lines_decline(r);
        }
    }
    if (owned) return lines_put(site, place, text, size, v);
    return lines_keep(r, slot, start, p - start, 's', v);
}

static const double lines_tens[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* A float literal's double, exactly rounded: at most 15 digits and a power of ten up to
 * 22 are both exact doubles, and one product or quotient of them is rounded once
 * (Clinger's fast path); any other through Python's correctly rounded strtod. */
static double lines_double(const char *start, const char *end, int *failed) {
    const char *p = start + (*start == '-');
    uint64_t digits = 0;
    int count = 0, point = 0, after = 0;
    for (; p < end && *p != 'e' && *p != 'E'; p++) {
        if (*p == '.') {
            point = 1;
            continue;
        }
        digits = digits * 10 + (uint64_t)(*p - '0');
        count++;
        after += point;
    }
    long exponent = 0;
    if (p < end) {
        int negative = *++p == '-';
        p += *p == '-' || *p == '+';
        for (; p < end && exponent < 100000; p++) exponent = exponent * 10 + (*p - '0');
        exponent = negative ? -exponent : exponent;
    }
    exponent -= after;
    *failed = 0;
    if (count <= 15 && exponent >= -22 && exponent <= 22) {
        double d = exponent < 0 ? (double)digits / lines_tens[-exponent]
                                : (double)digits * lines_tens[exponent];
        return *start == '-' ? -d : d;
    }
    char text[64];
    if (end - start >= (Py_ssize_t)sizeof text) {
        *failed = 1;
        return 0.0;
    }
    memcpy(text, start, end - start);
    text[end - start] = '\0';
    double d = PyOS_string_to_double(text, NULL, NULL);
    *failed = d == -1.0 && PyErr_Occurred() ? -1 : 0;
    return d;
}

static PyObject *lines_number(lines_reader *r, lines_site *site) {
    const char *start = r->at, *p = start;
    if (p < r->end && *p == '-') p++;
    if (p >= r->end || *p < '0' || *p > '9') return lines_decline(r);
    if (*p == '0') p++;
    else while (p < r->end && *p >= '0' && *p <= '9') p++;
    int whole = 1;
    if (p < r->end && *p == '.') {
        whole = 0;
        if (++p >= r->end || *p < '0' || *p > '9') return lines_decline(r);
        while (p < r->end && *p >= '0' && *p <= '9') p++;
    }
    if (p < r->end && (*p == 'e' || *p == 'E')) {
        whole = 0;
        if (++p < r->end && (*p == '+' || *p == '-')) p++;
        if (p >= r->end || *p < '0' || *p > '9') return lines_decline(r);
        while (p < r->end && *p >= '0' && *p <= '9') p++;
    }
    Py_ssize_t size = p - start;
    r->at = p;
    lines_slot *slot;
    PyObject *v = lines_cached(r, start, size, 'n', site, &slot);
    if (v != NULL) return v;
    if (whole) {
        if (size > 18) return lines_decline(r); /* past 64 bits orjson makes a float */
        long long n = 0;
        for (const char *d = start + (*start == '-'); d < p; d++) n = n * 10 + (*d - '0');
        v = PyLong_FromLongLong(*start == '-' ? -n : n);
    } else {
        int failed;
        double d = lines_double(start, p, &failed);
        if (failed < 0) return NULL;
        if (failed || isinf(d)) return lines_decline(r); /* orjson refuses an infinity */
        v = PyFloat_FromDouble(d);
    }
    return lines_keep(r, slot, start, size, 'n', v);
}
