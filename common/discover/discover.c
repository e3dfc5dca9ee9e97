/* discover: streaming counts of capitalised name spans and acronym pairs, then
 * frequency, concordance and completeness filters (see discover.h). */
#include "discover/discover.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "base/error.h"
#include "base/hashmap.h"

void discover_params_default(discover_params *p) {
    p->min_count = 3;
    p->max_len = 6;
    p->min_pmi = 1.0;
    p->max_table = 4000000;
}

/* Function words that never start a name, even capitalised ("The", "However"). */
static const char *const STOPWORDS[] = {
    "a", "about", "after", "all", "also", "although", "an", "and", "another", "any", "are", "as", "at", "be",
    "because", "been", "before", "between", "both", "but", "by", "can", "could", "did", "do", "does", "during",
    "each", "either", "even", "every", "for", "from", "had", "has", "have", "he", "her", "here", "his", "how",
    "however", "i", "if", "in", "into", "is", "it", "its", "just", "let", "many", "may", "might", "more", "most",
    "must", "my", "neither", "no", "nor", "not", "now", "of", "on", "once", "one", "only", "or", "other", "our",
    "over", "shall", "she", "should", "since", "so", "some", "still", "such", "than", "that", "the", "their",
    "then", "there", "these", "they", "this", "those", "though", "thus", "to", "under", "unless", "until", "upon",
    "was", "we", "were", "what", "when", "where", "whereas", "whether", "which", "while", "who", "whom", "whose",
    "why", "will", "with", "within", "without", "would", "yes", "yet", "you", "your", NULL};

/* Lower-case words that may join the capitalised words of one name. */
static const char *const CONNECTORS[] = {"of", "the", "van", "von", "der", "den", "de", "du", "da", "di", "del",
                                         "della", "des", "la", "le", "los", "las", "y", "zu", "ter", "ten", "bin",
                                         "ibn", "al", NULL};

/* Connectors that may also start a name before a capitalised word ("van Gogh",
 * "de Gaulle", "von Neumann") away from a sentence start. */
static const char *const PARTICLES[] = {"van", "von", "de", "du", "da", "di", "del", "della", "des", "der", "den",
                                        "la", "le", "ter", "ten", "zu", "al", "ibn", "bin", NULL};

static int in_list(const char *const *list, const char *s, size_t len) {
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == len && !strncmp(list[i], s, len)) return 1;
    return 0;
}

/* Is the token a stoplisted word in any case ("The", "THE")? ASCII only. */
static int is_stopword(const char *t) {
    char low[16];
    size_t n = strlen(t);
    if (n >= sizeof low) return 0;
    for (size_t i = 0; i < n; i++) {
        if ((unsigned char)t[i] >= 0x80) return 0;
        low[i] = (char)(t[i] >= 'A' && t[i] <= 'Z' ? t[i] + 32 : t[i]);
    }
    return in_list(STOPWORDS, low, n);
}

/* Roman numerals "I" to "XXXIX" (regnal numbers: "Charles I", "Henry VIII"). */
static int is_numeral(const char *t) {
    size_t n = strlen(t);
    return n >= 1 && n <= 6 && strspn(t, "IVX") == n;
}

token_class discover_token_class(const char *t) {
    if (is_numeral(t)) return TOKEN_NUMERAL;
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)t, -1, &cp);
    if (k <= 0) return TOKEN_OTHER;
    utf8proc_category_t c = utf8proc_category(cp);
    if (c == UTF8PROC_CATEGORY_LU || c == UTF8PROC_CATEGORY_LT) return is_stopword(t) ? TOKEN_OTHER : TOKEN_NAME;
    return in_list(CONNECTORS, t, strlen(t)) ? TOKEN_CONNECTOR : TOKEN_OTHER;
}

/* A counted key: occurrences away from a sentence start and at one. */
typedef struct {
    strmap map;
    int64_t *mid, *init;
    int64_t n, cap;
} counter;

static void counter_init(counter *c) {
    memset(c, 0, sizeof *c);
    strmap_init(&c->map);
}

static void counter_free(counter *c) {
    strmap_free(&c->map);
    free(c->mid);
    free(c->init);
}

static void counter_add(counter *c, const char *key, size_t len, int initial, int64_t by) {
    int64_t i = strmap_get(&c->map, key, len);
    if (i < 0) {
        if (c->n == c->cap) {
            c->cap = c->cap * 2 + 1024;
            c->mid = xrealloc(c->mid, sizeof *c->mid * (size_t)c->cap);
            c->init = xrealloc(c->init, sizeof *c->init * (size_t)c->cap);
        }
        i = c->n++;
        strmap_put(&c->map, key, len, i);
        c->mid[i] = c->init[i] = 0;
    }
    (initial ? c->init : c->mid)[i] += by;
}

static int64_t counter_total(const counter *c, const char *key, size_t len) {
    int64_t i = strmap_get(&c->map, key, len);
    return i < 0 ? 0 : c->mid[i] + c->init[i];
}

/* Keeps the keys seen at least twice (lossy counting). */
static void counter_prune(counter *c) {
    counter kept;
    counter_init(&kept);
    for (size_t s = 0; s < c->map.cap; s++) {
        if (!c->map.hash[s]) continue;
        int64_t i = c->map.val[s];
        if (c->mid[i] + c->init[i] < 2) continue;
        counter_add(&kept, c->map.key[s], c->map.klen[s], 0, c->mid[i]);
        counter_add(&kept, c->map.key[s], c->map.klen[s], 1, c->init[i]);
    }
    counter_free(c);
    *c = kept;
}

struct discover {
    discover_params p;
    counter words;     /* every token */
    counter spans;     /* candidate spans, tokens joined by ' ' */
    counter acronyms;  /* "ACR\texpansion" pairs (mid only) */
    int64_t name_words, pruned;
    char *key;
    size_t keycap;
    token_class *cls;
    int clscap;
};

discover *discover_new(const discover_params *p) {
    discover *d = xcalloc(1, sizeof *d);
    d->p = *p;
    counter_init(&d->words);
    counter_init(&d->spans);
    counter_init(&d->acronyms);
    return d;
}

void discover_free(discover *d) {
    if (!d) return;
    counter_free(&d->words);
    counter_free(&d->spans);
    counter_free(&d->acronyms);
    free(d->key);
    free(d->cls);
    free(d);
}

/* tokens[a..b] joined by `sep` into d->key; returns its length. */
static size_t join(discover *d, char *const *tokens, int a, int b, char sep) {
    size_t len = 0;
    for (int i = a; i <= b; i++) len += strlen(tokens[i]) + 1;
    if (len + 1 > d->keycap) {
        d->keycap = len * 2 + 64;
        d->key = xrealloc(d->key, d->keycap);
    }
    char *q = d->key;
    for (int i = a; i <= b; i++) {
        if (i > a) *q++ = sep;
        q = stpcpy(q, tokens[i]);
    }
    return (size_t)(q - d->key);
}

/* Capital letters of an acronym token ("IBM", "CoE", "U.S.A."), or 0 when it
 * is not one: 2..12 bytes of ASCII letters, '.' and '&', at least 2 capitals. */
static int acronym_capitals(const char *t, char *caps) {
    size_t n = strlen(t);
    int k = 0;
    if (n < 2 || n > 12) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = t[i];
        if (c >= 'A' && c <= 'Z') caps[k++] = c;
        else if (!((c >= 'a' && c <= 'z') || c == '.' || c == '&')) return 0;
    }
    caps[k] = 0;
    return k >= 2 ? k : 0;
}

/* Do the capitalised words of tokens[a..b] (connectors skipped) have exactly
 * the initials `caps`? Connectors are never initials here. */
static int initials_match(const token_class *cls, char *const *tokens, int a, int b, const char *caps) {
    int k = 0;
    for (int i = a; i <= b; i++) {
        if (cls[i] == TOKEN_CONNECTOR) continue;
        if (cls[i] != TOKEN_NAME || !caps[k] || tokens[i][0] != caps[k]) return 0;
        k++;
    }
    return caps[k] == 0;
}

static void count_acronyms(discover *d, char *const *tokens, int n) {
    const token_class *cls = d->cls;
    char caps[16];
    for (int i = 1; i + 2 < n; i++) {
        if (strcmp(tokens[i], "(")) continue;
        int k;
        /* Expansion ( ACR ): the last k capitalised words before "(" */
        if (!strcmp(tokens[i + 2], ")") && (k = acronym_capitals(tokens[i + 1], caps))) {
            int a = i - 1, seen = 0;
            while (a >= 0 && cls[a] != TOKEN_OTHER && seen < k) {
                if (cls[a] == TOKEN_NAME) seen++;
                if (seen < k) a--;
            }
            if (a >= 0 && seen == k && initials_match(cls, tokens, a, i - 1, caps)) {
                size_t al = strlen(tokens[i + 1]), len = join(d, tokens, a, i - 1, ' ');
                char *pair = xasprintf("%s\t%.*s", tokens[i + 1], (int)len, d->key);
                counter_add(&d->acronyms, pair, al + 1 + len, 0, 1);
                free(pair);
            }
        }
        /* ACR ( Expansion ) */
        if ((k = acronym_capitals(tokens[i - 1], caps))) {
            int e = i + 1;
            while (e < n && e <= i + d->p.max_len && cls[e] != TOKEN_OTHER) e++;
            if (e < n && e > i + 1 && !strcmp(tokens[e], ")") && initials_match(cls, tokens, i + 1, e - 1, caps)) {
                size_t al = strlen(tokens[i - 1]), len = join(d, tokens, i + 1, e - 1, ' ');
                char *pair = xasprintf("%s\t%.*s", tokens[i - 1], (int)len, d->key);
                counter_add(&d->acronyms, pair, al + 1 + len, 0, 1);
                free(pair);
            }
        }
    }
}

void discover_add_sentence(discover *d, char *const *tokens, int n) {
    if (n > d->clscap) {
        d->clscap = n * 2;
        d->cls = xrealloc(d->cls, sizeof *d->cls * (size_t)d->clscap);
    }
    token_class *cls = d->cls;
    int start = -1; /* the first word of the sentence (after opening quotes/brackets) */
    for (int i = 0; i < n; i++) {
        cls[i] = discover_token_class(tokens[i]);
        utf8proc_int32_t cp;
        if (start < 0 && utf8proc_iterate((const utf8proc_uint8_t *)tokens[i], -1, &cp) > 0 &&
            (utf8proc_category(cp) <= UTF8PROC_CATEGORY_LO || utf8proc_category(cp) == UTF8PROC_CATEGORY_ND))
            start = i;
        counter_add(&d->words, tokens[i], strlen(tokens[i]), i == start, 1);
    }
    for (int i = 0; i < n;) {
        if (cls[i] != TOKEN_NAME) { i++; continue; }

        int e = i + 1; /* the span is tokens[i..e) */
        for (;;) {
            int j = e;
            while (j < n && j - e < 2 && cls[j] == TOKEN_CONNECTOR) j++;
            if (j < n && (cls[j] == TOKEN_NAME || (cls[j] == TOKEN_NUMERAL && j == e))) e = j + 1;
            else break;
        }
        /* a particle right before the span starts it ("von Neumann") */
        if (i > start && i > 0 && cls[i - 1] == TOKEN_CONNECTOR && in_list(PARTICLES, tokens[i - 1], strlen(tokens[i - 1])))
            i--;
        for (int a = i; a < e; a++) {
            if (cls[a] != TOKEN_NAME && !(a == i && cls[a] == TOKEN_CONNECTOR)) continue;
            d->name_words += cls[a] == TOKEN_NAME;
            for (int b = a; b < e && b < a + d->p.max_len; b++) {
                if (cls[b] != TOKEN_NAME && cls[b] != TOKEN_NUMERAL) continue;
                if (cls[a] == TOKEN_CONNECTOR && b == a) continue;
                size_t len = join(d, tokens, a, b, ' '); /* before d->key is read: join may move it */
                counter_add(&d->spans, d->key, len, a == start, 1);
            }
        }
        i = e;
    }
    count_acronyms(d, tokens, n);
    if (d->spans.n > d->p.max_table) {
        counter_prune(&d->spans);
        d->pruned++;
    }
}

/* ---------------- selection ---------------- */

/* Is the capitalised word `w` usually capitalised: seen capitalised away from
 * sentence starts, and its case-folded form at most twice as frequent there? */
static int usually_capitalised(const discover *d, const char *w, size_t len) {
    int64_t i = strmap_get(&d->words.map, w, len);
    int64_t mid = i < 0 ? 0 : d->words.mid[i];
    utf8proc_uint8_t *folded = NULL;
    char *copy = xasprintf("%.*s", (int)len, w);
    int64_t lower = 0;
    if (utf8proc_map((const utf8proc_uint8_t *)copy, 0, &folded, UTF8PROC_NULLTERM | UTF8PROC_CASEFOLD | UTF8PROC_COMPOSE) >= 0 &&
        strcmp((char *)folded, copy))
        lower = counter_total(&d->words, (char *)folded, strlen((char *)folded));
    free(folded);
    free(copy);
    return mid >= 1 && lower <= 2 * mid;
}

static int letters(const char *s) {
    int k = 0;
    utf8proc_int32_t cp;
    for (utf8proc_ssize_t i = 0, m; s[i]; i += m) {
        m = utf8proc_iterate((const utf8proc_uint8_t *)s + i, -1, &cp);
        if (m <= 0) break;
        k += utf8proc_category(cp) <= UTF8PROC_CATEGORY_LO;
    }
    return k;
}

typedef struct {
    const char *key;   /* in the span counter's arena */
    uint32_t len;
    int ntok;
    int64_t count, ext; /* estimated count; count of its most frequent kept extension */
    int kept;
} cand;

static int64_t span_index(const strmap *index, const char *k, size_t len) { return strmap_get(index, k, len); }

/* Span obtained by dropping the first (from_left) or last name word of c and
 * the connectors next to it: [*off, *off + *len) of c->key; 0 if none is left. */
static int parent(const cand *c, int from_left, size_t *off, size_t *len) {
    if (c->ntok < 2) return 0;
    const char *k = c->key;
    size_t n = c->len;
    if (from_left) {
        const char *sp = memchr(k, ' ', n);
        size_t o = (size_t)(sp - k) + 1;
        for (;;) { /* skip connectors */
            const char *nx = memchr(k + o, ' ', n - o);
            size_t wl = nx ? (size_t)(nx - (k + o)) : n - o;
            if (!in_list(CONNECTORS, k + o, wl)) break;
            o += wl + 1;
        }
        *off = o;
        *len = n - o;
    } else {
        size_t e = n;
        while (e > 0 && k[e - 1] != ' ') e--;
        e--; /* at the space before the last word */
        for (;;) {
            size_t b = e;
            while (b > 0 && k[b - 1] != ' ') b--;
            if (!in_list(CONNECTORS, k + b, e - b)) break;
            if (b == 0) return 0; /* only a particle is left */
            e = b - 1;
        }
        *off = 0;
        *len = e;
    }
    return 1;
}

/* Minimum over the splits of c into two names a | b of log(c(ab) N / (c(a) c(b))). */
static double weakest_pmi(const cand *cs, const strmap *index, const cand *c, double nwords) {
    double best = INFINITY;
    const char *k = c->key;
    for (size_t gap = 0; gap < c->len; gap++) {
        if (k[gap] != ' ') continue;
        /* left: words before the gap without trailing connectors; right: after, without leading ones */
        size_t le = gap;
        for (;;) {
            size_t b = le;
            while (b > 0 && k[b - 1] != ' ') b--;
            if (!in_list(CONNECTORS, k + b, le - b)) break;
            if (b == 0) { le = 0; break; }
            le = b - 1;
        }
        size_t rb = gap + 1;
        for (;;) {
            const char *nx = memchr(k + rb, ' ', c->len - rb);
            size_t wl = nx ? (size_t)(nx - (k + rb)) : c->len - rb;
            if (!in_list(CONNECTORS, k + rb, wl)) break;
            if (!nx) { rb = c->len; break; }
            rb += wl + 1;
        }
        if (le == 0 || rb >= c->len) continue;
        int64_t l = span_index(index, k, le), r = span_index(index, k + rb, c->len - rb);
        double cl = l >= 0 && cs[l].count > 0 ? (double)cs[l].count : 1, cr = r >= 0 && cs[r].count > 0 ? (double)cs[r].count : 1;
        double pmi = log((double)c->count * nwords / (cl * cr));
        if (pmi < best) best = pmi;
    }
    return best;
}

static int by_length_desc(const void *a, const void *b) {
    const cand *x = *(cand *const *)a, *y = *(cand *const *)b;
    if (x->ntok != y->ntok) return x->ntok > y->ntok ? -1 : 1;
    return strcmp(x->key, y->key);
}

typedef struct {
    const char *key; /* "ACR\texpansion" */
    size_t alen;     /* bytes of ACR */
    int64_t expansion, count;
} acronym_pair;

/* By acronym, then count (descending), then expansion. */
static int by_acronym(const void *a, const void *b) {
    const acronym_pair *x = a, *y = b;
    size_t l = x->alen < y->alen ? x->alen : y->alen;
    int c = memcmp(x->key, y->key, l);
    if (c || x->alen != y->alen) return c ? c : (x->alen < y->alen ? -1 : 1);
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return strcmp(x->key, y->key);
}

static int by_count_desc(const void *a, const void *b) {
    const discovered_name *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return strcmp(x->name, y->name);
}

int64_t discover_finish(discover *d, discovered_name **out) {
    counter *sp = &d->spans;
    int64_t n = sp->n;
    cand *cs = xcalloc((size_t)n + 1, sizeof *cs);
    for (size_t s = 0; s < sp->map.cap; s++) {
        if (!sp->map.hash[s]) continue;
        int64_t i = sp->map.val[s];
        cand *c = &cs[i];
        c->key = sp->map.key[s];
        c->len = sp->map.klen[s];
        c->ntok = 1;
        for (uint32_t k = 0; k < c->len; k++) c->ntok += c->key[k] == ' ';
        const char *spc = memchr(c->key, ' ', c->len);
        size_t fl = spc ? (size_t)(spc - c->key) : c->len;
        c->count = sp->mid[i] + (sp->init[i] && usually_capitalised(d, c->key, fl) ? sp->init[i] : 0);
    }
    /* longest first, so that a candidate's kept extensions are known when it is judged */
    cand **order = xmalloc(sizeof *order * (size_t)(n + 1));
    for (int64_t i = 0; i < n; i++) order[i] = &cs[i];
    qsort(order, (size_t)n, sizeof *order, by_length_desc);
    double nwords = d->name_words > 0 ? (double)d->name_words : 1;
    int64_t min = d->p.min_count;
    for (int64_t o = 0; o < n; o++) {
        cand *c = order[o];
        if (c->count < min || c->count - c->ext < min) continue;
        if (c->ntok == 1) {
            if (letters(c->key) < 2 || !usually_capitalised(d, c->key, c->len)) continue;
        } else if (weakest_pmi(cs, &sp->map, c, nwords) < d->p.min_pmi) {
            continue;
        }
        c->kept = 1;
        for (int side = 0; side < 2; side++) {
            size_t off, len;
            if (!parent(c, side, &off, &len)) continue;
            int64_t p = span_index(&sp->map, c->key + off, len);
            if (p >= 0 && cs[p].ext < c->count) cs[p].ext = c->count;
        }
    }
    free(order);
    /* acronyms: each joins its most frequent kept expansion */
    counter *ac = &d->acronyms;
    acronym_pair *pairs = xmalloc(sizeof *pairs * (size_t)(ac->n + 1));
    int64_t np = 0;
    for (size_t s = 0; s < ac->map.cap; s++) {
        if (!ac->map.hash[s]) continue;
        const char *key = ac->map.key[s], *tab = strchr(key, '\t');
        int64_t e = span_index(&sp->map, tab + 1, strlen(tab + 1));
        if (e >= 0 && cs[e].kept) pairs[np++] = (acronym_pair){key, (size_t)(tab - key), e, ac->mid[ac->map.val[s]]};
    }
    qsort(pairs, (size_t)np, sizeof *pairs, by_acronym);
    int64_t *alias_of = xmalloc(sizeof *alias_of * (size_t)(n + 1)); /* candidate -> first pair naming it */
    int64_t *alias_next = xmalloc(sizeof *alias_next * (size_t)(np + 1));
    for (int64_t i = 0; i < n; i++) alias_of[i] = -1;
    for (int64_t k = 0; k < np; k++) {
        alias_next[k] = -1;
        if (k > 0 && pairs[k].alen == pairs[k - 1].alen && !memcmp(pairs[k].key, pairs[k - 1].key, pairs[k].alen))
            continue; /* not the acronym's most frequent expansion */
        int64_t a = span_index(&sp->map, pairs[k].key, pairs[k].alen), e = pairs[k].expansion;
        if (a == e) continue;
        if (a >= 0 && cs[a].kept) { /* the acronym's own mentions now belong to the expansion */
            cs[a].kept = 0;
            cs[e].count += cs[a].count;
        }
        alias_next[k] = alias_of[e];
        alias_of[e] = k;
    }
    int64_t kept = 0;
    for (int64_t i = 0; i < n; i++) kept += cs[i].kept;
    discovered_name *names = xcalloc((size_t)kept + 1, sizeof *names);
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!cs[i].kept) continue;
        discovered_name *dn = &names[m++];
        dn->name = xasprintf("%.*s", (int)cs[i].len, cs[i].key);
        dn->count = cs[i].count;
        for (int64_t k = alias_of[i]; k >= 0; k = alias_next[k]) {
            dn->aliases = xrealloc(dn->aliases, sizeof *dn->aliases * (size_t)(dn->naliases + 1));
            dn->aliases[dn->naliases++] = xasprintf("%.*s", (int)pairs[k].alen, pairs[k].key);
        }
    }
    qsort(names, (size_t)kept, sizeof *names, by_count_desc);
    free(alias_of);
    free(alias_next);
    free(pairs);
    free(cs);
    *out = names;
    return kept;
}

void discovered_names_free(discovered_name *names, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        free(names[i].name);
        for (int k = 0; k < names[i].naliases; k++) free(names[i].aliases[k]);
        free(names[i].aliases);
    }
    free(names);
}
