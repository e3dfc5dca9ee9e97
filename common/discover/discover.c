/* discover: streaming counts of capitalised name spans, acronym pairs and
 * definition heads, then frequency, concordance and completeness filters and
 * the merges of a name's variants (see discover.h). */
#include "discover/discover.h"

#include <ctype.h>
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
    p->min_alone = 0.1;
    p->max_table = 4000000;
    p->no_heads = 0;
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
    "why", "will", "with", "within", "without", "would", "yes", "yet", "you", "your",
    /* interjections */
    "ah", "oh", "uh", "um", NULL};

/* A definition head has at most this many items and tokens before its ":". */
#define MAX_HEAD_ITEMS 8
#define MAX_HEAD_TOKENS 64
/* Heads are read when at least this share of the sentences start with one
 * (with a name or not): a glossary or dictionary (WordNet's glosses: 19% of
 * wordnet-ese dev's sentences, 87% of the example's), not running text where
 * a label or a list comes before a colon now and then (FOLDOC: 2.8%). */
#define MIN_HEAD_SHARE 0.07

/* Lower-case words that may join the capitalised words of one name. */
static const char *const CONNECTORS[] = {"of", "the", "van", "von", "der", "den", "de", "du", "da", "di", "del",
                                         "della", "des", "la", "le", "los", "las", "y", "zu", "ter", "ten", "bin",
                                         "ibn", "al", NULL};

/* Connectors that may also start a name before a capitalised word ("van Gogh",
 * "de Gaulle", "von Neumann") away from a sentence start. */
static const char *const PARTICLES[] = {"van", "von", "de", "du", "da", "di", "del", "della", "des", "der", "den",
                                        "la", "le", "ter", "ten", "zu", "al", "ibn", "bin", NULL};

/* Month and day names and their abbreviations, as written in running text
 * (exact case: "Dec" the month, not "DEC" the company): never a name's word. */
static const char *const DATE_WORDS[] = {
    "January", "February", "March", "April", "June", "July", "August", "September", "October", "November",
    "December", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "Jan.",
    "Feb.", "Mar.", "Apr.", "Jun.", "Jul.", "Aug.", "Sep.", "Sept.", "Oct.", "Nov.", "Dec.", "Monday", "Tuesday",
    "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Mon", "Tue", "Tues", "Wed", "Thu", "Thur",
    "Thurs", "Fri", NULL};

/* Words that end a company's name ("Textron Inc", "Sun Microsystems"): never
 * a name alone, and "X <these>" is a company form of the name X. */
static const char *const DESIGNATORS[] = {
    "Inc", "Inc.", "Corp", "Corp.", "Co", "Co.", "Cos", "Cos.", "Ltd", "Ltd.", "Plc", "PLC", "plc", "AG", "SA",
    "NV", "Pty", "SpA", "GmbH", "LLC", "Bhd", "Ltda", "Corporation", "Company", "Limited", "Incorporated",
    "Microsystems", "Computer", "Computers", NULL};

/* A name's suffix ("Martin Luther King Jr."): never a name alone. */
static const char *const NAME_SUFFIXES[] = {"Jr", "Jr.", "Sr", "Sr.", NULL};

/* Titles: a run of name words "Finance Minister Cleopa Msuya" names the
 * person after the last title that a name word follows. */
static const char *const TITLES[] = {
    "Mr", "Mr.", "Mrs", "Mrs.", "Ms", "Ms.", "Dr", "Dr.", "Prof", "Prof.", "Professor", "President",
    "Chairman", "Chairwoman", "Minister", "Secretary", "Senator", "Sen", "Sen.", "Rep", "Rep.", "Representative",
    "Governor", "Gov", "Gov.", "Ambassador", "Chancellor", "Premier", "Commissioner", "Spokesman", "Spokeswoman",
    "Director", "Treasurer", "Judge", "Sheikh", "Pope", "Mayor", "Officer", "Economist", "Analyst", "Lt", "Lt.",
    "Col", "Col.", "Capt", "Capt.", "Gen", "Gen.", "Adm", "Adm.", NULL};

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

/* A model or version number that may end a name ("Windows 95", "IBM 360",
 * "Windows 3.1"): 1 to 4 digits, then at most one '.' and 1 or 2 digits. */
static int is_number(const char *t) {
    size_t d = strspn(t, "0123456789");
    if (d < 1 || d > 4) return 0;
    if (!t[d]) return 1;
    size_t f = t[d] == '.' ? strspn(t + d + 1, "0123456789") : 0;
    return f >= 1 && f <= 2 && !t[d + 1 + f];
}

/* A range or a pair of dates in one token ("May/Jul", "April-June",
 * "January/December"): parts joined by '/' or '-', each a date word or "May"
 * (no date word alone: "May" is also a name), at least one a date word. */
static int date_range(const char *t) {
    int dates = 0, parts = 0;
    for (const char *b = t, *e;; b = e + 1) {
        e = b + strcspn(b, "/-");
        size_t len = (size_t)(e - b);
        if (in_list(DATE_WORDS, b, len)) dates++;
        else if (!(len == 3 && !memcmp(b, "May", 3))) return 0;
        parts++;
        if (!*e) break;
    }
    return parts >= 2 && dates >= 1;
}

token_class discover_token_class(const char *t) {
    if (is_numeral(t) || is_number(t)) return TOKEN_NUMERAL;
    if (in_list(DATE_WORDS, t, strlen(t)) || date_range(t) || strpbrk(t, "{}<>[]|")) return TOKEN_OTHER; /* a date, or markup ("IBM}", "Inc>") */
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)t, -1, &cp);
    if (k <= 0) return TOKEN_OTHER;
    utf8proc_category_t c = utf8proc_category(cp);
    if (c == UTF8PROC_CATEGORY_LU || c == UTF8PROC_CATEGORY_LT) return is_stopword(t) ? TOKEN_OTHER : TOKEN_NAME;
    return in_list(CONNECTORS, t, strlen(t)) ? TOKEN_CONNECTOR : TOKEN_OTHER;
}

/* A counted key: a few counts per key (slots), e.g. its occurrences away
 * from a sentence start and at one. */
enum { MID, INIT, WHOLE_MID, WHOLE_INIT, ENDS, MEASURED, WHOLE_REST }; /* WHOLE_*: the span was a whole run of name words;
                                                             * ENDS: a whole run that ended a phrase (ends_phrase);
                                                             * MEASURED: a whole run after a quantity (after_quantity);
                                                             * WHOLE_REST: a whole run only as the rest of a sentence-initial run */
enum { LISTED = 2 }; /* the word counter's third slot: a one-letter name listed next to a longer name ("C , Pascal") */
enum { GLUED = 3 };  /* its fourth: the word before a hyphen and a lower-case word ("BBB" of "BBB-plus") */
enum { LOWER_TAIL = 1 }; /* the lower-case counter's second slot: the first word capitalised, the rest not ("U.S. position") */
typedef struct {
    strmap map;
    int64_t *v; /* slots counts per key */
    int slots;
    int64_t n, cap;
} counter;

static void counter_init(counter *c, int slots) {
    memset(c, 0, sizeof *c);
    strmap_init(&c->map);
    c->slots = slots;
}

static void counter_free(counter *c) {
    strmap_free(&c->map);
    free(c->v);
}

static int64_t *counter_slots(counter *c, const char *key, size_t len) {
    int64_t i = strmap_get(&c->map, key, len);
    if (i < 0) {
        if (c->n == c->cap) {
            c->cap = c->cap * 2 + 1024;
            c->v = xrealloc(c->v, sizeof *c->v * (size_t)(c->cap * c->slots));
        }
        i = c->n++;
        strmap_put(&c->map, key, len, i);
        memset(c->v + i * c->slots, 0, sizeof *c->v * (size_t)c->slots);
    }
    return c->v + i * c->slots;
}

static void counter_add(counter *c, const char *key, size_t len, int slot, int64_t by) {
    counter_slots(c, key, len)[slot] += by;
}

/* Occurrences of a key of the word counter (MID + INIT), 0 if unseen. */
static int64_t counter_total(const counter *c, const char *key, size_t len) {
    int64_t i = strmap_get(&c->map, key, len);
    return i < 0 ? 0 : c->v[i * c->slots + MID] + c->v[i * c->slots + INIT];
}

/* Keeps the keys seen at least twice (lossy counting). */
static void counter_prune(counter *c) {
    counter kept;
    counter_init(&kept, c->slots);
    for (size_t s = 0; s < c->map.cap; s++) {
        if (!c->map.hash[s]) continue;
        const int64_t *v = c->v + c->map.val[s] * c->slots;
        if (v[MID] + (c->slots > INIT ? v[INIT] : 0) < 2) continue; /* one-slot counters have no INIT */
        memcpy(counter_slots(&kept, c->map.key[s], c->map.klen[s]), v, sizeof *v * (size_t)c->slots);
    }
    counter_free(c);
    *c = kept;
}

struct discover {
    discover_params p;
    counter words;     /* every token: MID, INIT, LISTED */
    counter spans;     /* candidate spans, tokens joined by ' ' */
    counter acronyms;  /* "ACR\texpansion" pairs (mid only) */
    counter spelled;   /* "ACR\tExpansion" pairs whose every word spells the acronym, function words too (count_spelled) */
    counter together;  /* "word\tlong form": sentences where a one-word whole run and a longer span ending with it meet */
    counter initials;  /* "ACR\tlong form": sentences where an acronym and a span with its initials meet */
    counter heads;     /* definition heads: their name items joined by '\t' */
    char *entry;       /* the name items of the last definition head, joined by '\t' ("": none): its entry's sentences follow */
    size_t entry_len;
    counter links;     /* names the text's link markup pointed at (discover_add_link) */
    counter frames;    /* "<w j\tspan", ">j w\tspan": a whole run's frame of a name word and a joiner (count_frame) */
    counter lower;     /* case-folded candidates of several words: the text's lower-case occurrences
                        * (MID) and those with only the first word capitalised (LOWER_TAIL; second pass) */
    int lower_pass;    /* the second pass has begun: d->lower holds the candidates */
    int64_t name_words, pruned;
    int64_t sentences, head_sentences; /* sentences seen; those that start with a definition head */
    char *key;
    size_t keycap;
    token_class *cls;
    int *alone, *runs; /* one sentence's one-word whole runs (token index) and runs (start, end) */
    int clscap;
};

discover *discover_new(const discover_params *p) {
    discover *d = xcalloc(1, sizeof *d);
    d->p = *p;
    counter_init(&d->words, 4);
    counter_init(&d->spans, 7);
    counter_init(&d->acronyms, 1);
    counter_init(&d->spelled, 1);
    counter_init(&d->together, 1);
    counter_init(&d->initials, 1);
    counter_init(&d->heads, 1);
    counter_init(&d->links, 1);
    counter_init(&d->frames, 1);
    counter_init(&d->lower, 2);
    return d;
}

void discover_free(discover *d) {
    if (!d) return;
    counter_free(&d->words);
    counter_free(&d->spans);
    counter_free(&d->acronyms);
    counter_free(&d->spelled);
    counter_free(&d->together);
    counter_free(&d->initials);
    counter_free(&d->heads);
    counter_free(&d->links);
    counter_free(&d->frames);
    counter_free(&d->lower);
    free(d->key);
    free(d->entry);
    free(d->cls);
    free(d->alone);
    free(d->runs);
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
                counter_add(&d->acronyms, pair, al + 1 + len, MID, 1);
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
                counter_add(&d->acronyms, pair, al + 1 + len, MID, 1);
                free(pair);
            }
        }
    }
}

/* Does the head key (items joined by '\t') hold the item s[0..len), case aside? */
static int head_has_item(const char *key, size_t klen, const char *s, size_t len) {
    for (size_t b = 0, e; b < klen; b = e + 1) {
        const char *tab = memchr(key + b, '\t', klen - b);
        e = tab ? (size_t)(tab - key) : klen;
        if (e - b == len && !strncasecmp(key + b, s, len)) return 1;
    }
    return 0;
}

/* Does every word of tokens[a..b], and every part of a hyphenated word, start
 * with a capital, the capitals in order spelling exactly `caps`, function
 * words included ("In My Not-So-Humble Opinion" spells IMNSHO)? */
static int spells_capitals(char *const *tokens, int a, int b, const char *caps) {
    int k = 0;
    for (int i = a; i <= b; i++)
        for (const char *p = tokens[i]; *p; p++) {
            if (p != tokens[i] && p[-1] != '-') continue;
            if (*p < 'A' || *p > 'Z' || caps[k] != *p) return 0;
            k++;
        }
    return caps[k] == 0;
}

/* In the entry of a definition head (the head's sentence and those after it,
 * until the next head), "ACR ( Expansion )" where ACR is an item of the head
 * and the expansion's words spell it whole (spells_capitals): the entry says
 * what the item stands for, also when that is no name ("IMNSHO ( In My
 * Not-So-Humble Opinion )" under "IMHO , IMAO , IMNSHO , IMO :"). */
static void count_spelled(discover *d, char *const *tokens, int n) {
    char caps[16];
    if (!d->entry_len) return;
    for (int i = 1; i + 2 < n; i++) {
        if (strcmp(tokens[i], "(") || !acronym_capitals(tokens[i - 1], caps) ||
            !head_has_item(d->entry, d->entry_len, tokens[i - 1], strlen(tokens[i - 1])))
            continue;
        int e = i + 1;
        while (e < n && e <= i + d->p.max_len && strcmp(tokens[e], ")")) e++;
        if (e < n && e > i + 1 && !strcmp(tokens[e], ")") && spells_capitals(tokens, i + 1, e - 1, caps)) {
            size_t al = strlen(tokens[i - 1]), len = join(d, tokens, i + 1, e - 1, ' ');
            char *pair = xasprintf("%s\t%.*s", tokens[i - 1], (int)len, d->key);
            counter_add(&d->spelled, pair, al + 1 + len, MID, 1);
            free(pair);
        }
    }
}

/* Each one-word whole run of the sentence with each longer span of name
 * words ending with the same word ("Eyre , Lake Eyre :" -> "Eyre\tLake
 * Eyre"): the text's own evidence of which long form the short name stands for. */
static void count_together(discover *d, char *const *tokens, int nalone, int nruns) {
    for (int k = 0; k < nalone; k++) {
        const char *w = tokens[d->alone[k]];
        size_t wl = strlen(w);
        for (int r = 0; r < nruns; r++)
            for (int b = d->runs[2 * r] + 1; b < d->runs[2 * r + 1]; b++) {
                if (strcmp(tokens[b], w)) continue;
                for (int a = b - 1; a >= d->runs[2 * r] && b - a < d->p.max_len; a--) {
                    if (d->cls[a] != TOKEN_NAME) continue;
                    size_t len = join(d, tokens, a, b, ' ');
                    char *pair = xasprintf("%s\t%.*s", w, (int)len, d->key);
                    counter_add(&d->together, pair, wl + 1 + len, MID, 1);
                    free(pair);
                }
            }
    }
}

/* Does the token start with a lower-case letter ("image", "on-line")? */
static int lower_case_word(const char *t) {
    utf8proc_int32_t cp;
    return utf8proc_iterate((const utf8proc_uint8_t *)t, -1, &cp) > 0 && utf8proc_category(cp) == UTF8PROC_CATEGORY_LL;
}

/* The position of the ":" that ends a definition head's items in the first
 * MAX_HEAD_TOKENS tokens, or -1 (count_head). */
static int head_colon(char *const *tokens, int n) {
    int colon = 0;
    while (colon < n && colon < MAX_HEAD_TOKENS && strcmp(tokens[colon], ":")) colon++;
    return colon == 0 || colon >= n || colon == MAX_HEAD_TOKENS ? -1 : colon;
}

/* A definition head: the sentence starts with items separated by "," and
 * ended by ":" ("Garbo , Greta Garbo , Greta Louisa Gustafsson : United
 * States film actress"); the items that are whole runs of name words
 * (d->runs) are names of one thing, counted together as one key. Every head
 * counts in d->head_sentences, also one without a name ("agon : a festivity"). */
static void count_head(discover *d, char *const *tokens, int nruns, int colon) {
    if (colon < 0) return;
    size_t cap = 1;
    for (int i = 0; i < colon; i++) cap += strlen(tokens[i]) + 1;
    char *key = xmalloc(cap), *q = key;
    int r = 0, items = 0;
    for (int a = 0, b; a < colon; a = b + 1) {
        for (b = a; b < colon && strcmp(tokens[b], ","); b++) {}
        if (b == a || ++items > MAX_HEAD_ITEMS) { /* an empty item, or a list rather than a head */
            free(key);
            return;
        }
        while (r < nruns && d->runs[2 * r] < a) r++;
        if (r == nruns || d->runs[2 * r] != a || d->runs[2 * r + 1] != b || b - a > d->p.max_len) continue;
        size_t len = join(d, tokens, a, b - 1, ' ');
        if (q > key) *q++ = '\t';
        q = mempcpy(q, d->key, len);
    }
    d->head_sentences++;
    if (q > key) counter_add(&d->heads, key, (size_t)(q - key), MID, 1);
    free(d->entry);
    d->entry = key;
    d->entry_len = (size_t)(q - key);
}

/* Verbs that follow a noun phrase and never an adjective ("Baldrige said"). */
static const char *const PHRASE_VERBS[] = {"said", "says", "told", "added", "reported", "announced", "is", "was",
                                           "has", "had", "will", "would", "who", "which", NULL};

/* Does a run of name words that ends before tokens[e] end a noun phrase
 * there: the sentence ends, or punctuation, "'s", a number or one of
 * PHRASE_VERBS follows ("in Japan ,", "Japan 's", "CACM 31", "Japan said"),
 * as a name does now and then and an adjective ("Japanese officials")
 * almost never? */
static int ends_phrase(char *const *tokens, int n, int e) {
    if (e >= n) return 1;
    unsigned char c = (unsigned char)tokens[e][0];
    return (c < 0x80 && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) ||
           in_list(PHRASE_VERBS, tokens[e], strlen(tokens[e]));
}

static void case_counts(const discover *d, const char *w, size_t len, int64_t *mid, int64_t *lower);

/* Is the capitalised first word of a sentence a common word by the counts
 * so far (its lower-case form at least as frequent as it capitalised away
 * from sentence starts: "Yesterday", not "AppleTalk", "Interface")? Only then is
 * the rest of its run a whole run ("Yesterday the Church of England"; not
 * "Filing Protocol" in "AppleTalk Filing Protocol", "Flooring Systems Inc"
 * in "Interface Flooring Systems Inc said"). */
static int common_so_far(const discover *d, const char *w) {
    int64_t mid, lower;
    case_counts(d, w, strlen(w), &mid, &lower);
    return lower >= mid; /* a word not seen yet gets the exemption */
}

/* Is the token "and" or "&", which may join the words of one name
 * ("Securities and Exchange Commission", "Procter & Gamble")? */
static int is_and(const char *t, size_t len) { return (len == 3 && !memcmp(t, "and", 3)) || (len == 1 && *t == '&'); }

/* May the word join the name words of one name: a connector, "and" or "&"? */
static int is_joiner(const char *t, size_t len) { return in_list(CONNECTORS, t, len) || is_and(t, len); }

/* Two runs of name words joined by "and" or "&" ("Securities and Exchange
 * Commission"): the spans from a name word of the first run to a name word
 * of the second, whole when they cover both runs. Kept only when frequent
 * next to their parts (and_span_complete, below): "IBM and Microsoft" is no name. */
static void count_joined_runs(discover *d, char *const *tokens, int n, int nruns, int start) {
    for (int r = 0; r + 1 < nruns; r++) {
        int a0 = d->runs[2 * r], e0 = d->runs[2 * r + 1], a1 = d->runs[2 * r + 2], e1 = d->runs[2 * r + 3];
        if (a1 != e0 + 1 || !is_and(tokens[e0], strlen(tokens[e0]))) continue;
        for (int a = a0; a < e0; a++) {
            if (d->cls[a] != TOKEN_NAME) continue;
            for (int b = a1; b < e1 && b - a < d->p.max_len; b++) {
                if (d->cls[b] != TOKEN_NAME && d->cls[b] != TOKEN_NUMERAL) continue;
                size_t len = join(d, tokens, a, b, ' ');
                int64_t *v = counter_slots(&d->spans, d->key, len);
                v[a == start ? INIT : MID]++;
                if (a == a0 && b == e1 - 1) {
                    v[a == start ? WHOLE_INIT : WHOLE_MID]++;
                    v[ENDS] += ends_phrase(tokens, n, e1);
                }
            }
        }
    }
}

/* Is the token an acronym in capitals, 2 to 8 letters A-Z ("DEC")? */
static int capitals_only(const char *t) {
    size_t k = strspn(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    return k >= 2 && k <= 8 && !t[k];
}

/* Each acronym in capitals with each span of name words of the same
 * sentence whose initials it is ("DEC" ... "Digital Equipment Corporation"):
 * the text's evidence that the two name one thing (merge_initials). */
static void count_initials(discover *d, char *const *tokens, int n, int nruns) {
    for (int i = 0; i < n; i++) {
        if (d->cls[i] != TOKEN_NAME || !capitals_only(tokens[i])) continue;
        size_t k = strlen(tokens[i]);
        for (int r = 0; r < nruns; r++)
            for (int a = d->runs[2 * r]; a < d->runs[2 * r + 1]; a++) {
                if (d->cls[a] != TOKEN_NAME || tokens[a][0] != tokens[i][0]) continue;
                int b = a + 1; /* the span's last word: the k-th name word from a */
                for (size_t got = 1; b < d->runs[2 * r + 1] && got < k; b++) got += d->cls[b] == TOKEN_NAME;
                if (b - 1 <= a || !initials_match(d->cls, tokens, a, b - 1, tokens[i])) continue;
                size_t len = join(d, tokens, a, b - 1, ' ');
                char *pair = xasprintf("%s\t%.*s", tokens[i], (int)len, d->key);
                counter_add(&d->initials, pair, k + 1 + len, MID, 1);
                free(pair);
            }
    }
}

/* Has the token exactly one letter ("C", "C++", "F#", "S/360")? */
static int one_letter(const char *t) {
    int k = 0;
    for (; *t; t++) k += (*t >= 'A' && *t <= 'Z') || (*t >= 'a' && *t <= 'z') || ((unsigned char)*t >= 0x80);
    return k == 1;
}

/* Is tokens[i] a name word of at least two letters listed next to the
 * one-letter word on the other side of tokens[sep] ("," "and" "or" "/")? */
static int listed_with_name(const discover *d, char *const *tokens, int n, int sep, int i) {
    if (sep < 0 || sep >= n || i < 0 || i >= n || d->cls[i] != TOKEN_NAME || one_letter(tokens[i])) return 0;
    const char *s = tokens[sep];
    return !strcmp(s, ",") || !strcmp(s, "and") || !strcmp(s, "or") || !strcmp(s, "/");
}

/* One-letter name words listed next to a longer name ("C , Pascal and
 * Fortran"), the text's sign that a letter is a name and no variable or grade. */
static void count_listed(discover *d, char *const *tokens, int n) {
    for (int i = 0; i < n; i++)
        if (d->cls[i] == TOKEN_NAME && one_letter(tokens[i]) &&
            (listed_with_name(d, tokens, n, i + 1, i + 2) || listed_with_name(d, tokens, n, i - 1, i - 2)))
            counter_add(&d->words, tokens[i], strlen(tokens[i]), LISTED, 1);
}

/* Is the token a quantity: digits with ',' '.' '/' ("12", "3,800", "1.28",
 * "8-3/4"), not a year ("the 1973 War Powers Act") nor an ordinal ("5th")? */
static int quantity(const char *t) {
    size_t n = strlen(t);
    if (!n || t[0] < '0' || t[0] > '9' || strspn(t, "0123456789,./-") != n) return 0;
    return !(n == 4 && strspn(t, "0123456789") == 4 && (t[0] == '1' || (t[0] == '2' && t[1] == '0')));
}

/* Does tokens[a] follow a quantity, or a quantity and one lower-case word
 * ("12 H.K. Dlrs", "1.28 billion H.K. Dlrs"), as a unit or a currency does
 * and a name seldom? */
static int after_quantity(char *const *tokens, int a) {
    return (a >= 1 && quantity(tokens[a - 1])) || (a >= 2 && lower_case_word(tokens[a - 1]) && quantity(tokens[a - 2]));
}

/* Has the text written tokens[a..b] away from a sentence start so far ("New
 * Zealand" in "... of New Zealand")? Then a capitalised common word that starts
 * a sentence with it ("New Zealand said") is the name's first word. */
static int seen_mid(discover *d, char *const *tokens, int a, int b) {
    size_t len = join(d, tokens, a, b, ' ');
    int64_t i = strmap_get(&d->spans.map, d->key, len);
    return i >= 0 && d->spans.v[i * d->spans.slots + MID] > 0;
}

/* Is the token a word that binds two runs of name words into one longer
 * name ("Securities and Exchange Commission", "Python 's Flying Circus")?
 * Before a name: "and", "&", "'s"; after it: "and", "&" (not "'s": the
 * possessor is a name of its own, "Moody 's"). Not ",": "Austin , Texas" and
 * lists of authors are as frequent as "Kidder , Peabody". */
static int frame_joiner(const char *t, int left) {
    return !strcmp(t, "and") || !strcmp(t, "&") || (left && !strcmp(t, "'s"));
}

/* The frames of a whole run tokens[a..e): a name word and a joiner before it
 * ("Securities and") or a joiner and a name word after it ("and Jenrette"),
 * counted per span: a name whose whole runs mostly sit in one frame is a
 * fragment of a longer name that "and" or "'s" cuts into runs. */
static void count_frame(discover *d, char *const *tokens, int n, int a, int e) {
    if (e - a > d->p.max_len) return;
    for (int side = 0; side < 2; side++) {
        int j = side ? e : a - 2; /* the frame's first token */
        if (j < 0 || j + 1 >= n) continue;
        int w = side ? j + 1 : j; /* the frame's name word */
        if (d->cls[w] != TOKEN_NAME || !frame_joiner(tokens[side ? j : j + 1], !side) || in_list(DESIGNATORS, tokens[w], strlen(tokens[w])))
            continue; /* "Morgan Stanley and Co" is Morgan Stanley's company form */
        size_t len = join(d, tokens, a, e - 1, ' ');
        char *key = xasprintf("%c%s %s\t%.*s", side ? '>' : '<', tokens[j], tokens[j + 1], (int)len, d->key);
        counter_add(&d->frames, key, strlen(key), MID, 1);
        free(key);
    }
}

/* A token of a word, a hyphen and a lower-case word ("BBB-plus", "U.S.-based"):
 * the word before the hyphen counted GLUED. */
static void count_glued(discover *d, const char *t) {
    const char *h = strrchr(t, '-');
    if (!h || h == t || !h[1] || !h[2] || strspn(h + 1, "abcdefghijklmnopqrstuvwxyz") != strlen(h + 1)) return;
    counter_add(&d->words, t, (size_t)(h - t), GLUED, 1);
}

void discover_add_sentence(discover *d, char *const *tokens, int n) {
    if (n > d->clscap) {
        d->clscap = n * 2;
        d->cls = xrealloc(d->cls, sizeof *d->cls * (size_t)d->clscap);
        d->alone = xrealloc(d->alone, sizeof *d->alone * (size_t)d->clscap);
        d->runs = xrealloc(d->runs, sizeof *d->runs * (size_t)d->clscap * 2);
    }
    int nalone = 0, nruns = 0;
    token_class *cls = d->cls;
    /* the items of a definition head end at "," or ":", which says nothing of a word's part of speech
     * ("Gaussian : of or relating to Karl Gauss"): no phrase end (ends_phrase) there */
    int colon = d->p.no_heads ? -1 : head_colon(tokens, n);
    int start = -1; /* the first word of the sentence (after opening quotes/brackets) */
    for (int i = 0; i < n; i++) {
        cls[i] = discover_token_class(tokens[i]);
        utf8proc_int32_t cp;
        if (start < 0 && utf8proc_iterate((const utf8proc_uint8_t *)tokens[i], -1, &cp) > 0 &&
            (utf8proc_category(cp) <= UTF8PROC_CATEGORY_LO || utf8proc_category(cp) == UTF8PROC_CATEGORY_ND))
            start = i;
        counter_add(&d->words, tokens[i], strlen(tokens[i]), i == start ? INIT : MID, 1);
        count_glued(d, tokens[i]);
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
        /* a title before a name word starts no name: the person's name follows it */
        for (int t = e - 2; t >= i; t--)
            if (cls[t + 1] == TOKEN_NAME && in_list(TITLES, tokens[t], strlen(tokens[t]))) {
                i = t + 1;
                break;
            }
        /* a particle right before the span starts it ("von Neumann") */
        if (i > start && i > 0 && cls[i - 1] == TOKEN_CONNECTOR && in_list(PARTICLES, tokens[i - 1], strlen(tokens[i - 1])))
            i--;
        /* the run is whole from i, and from its second name word when i starts
         * the sentence (a capitalised first word there may be no name: "Yesterday
         * the Church of England") */
        int rest = i + 1;
        while (i == start && rest < e && cls[rest] != TOKEN_NAME) rest++;
        if (i == start && (!common_so_far(d, tokens[i]) || (rest < e && seen_mid(d, tokens, i, rest))))
            rest = e; /* "AppleTalk Filing Protocol", "New Zealand": no exemption */
        for (int a = i; a < e; a++) {
            if (cls[a] != TOKEN_NAME && !(a == i && cls[a] == TOKEN_CONNECTOR)) continue;
            d->name_words += cls[a] == TOKEN_NAME;
            for (int b = a; b < e && b < a + d->p.max_len; b++) {
                if (cls[b] != TOKEN_NAME && cls[b] != TOKEN_NUMERAL) continue;
                if (cls[a] == TOKEN_CONNECTOR && b == a) continue;
                size_t len = join(d, tokens, a, b, ' '); /* before d->key is read: join may move it */
                int64_t *v = counter_slots(&d->spans, d->key, len);
                v[a == start ? INIT : MID]++;
                if ((a == i || (i == start && a == rest)) && b == e - 1) {
                    v[a == start ? WHOLE_INIT : WHOLE_MID]++;
                    v[ENDS] += ends_phrase(tokens, n, e) && !(start == 0 && e <= colon);
                    v[MEASURED] += after_quantity(tokens, a);
                    v[WHOLE_REST] += a != i;
                    if (a == b) d->alone[nalone++] = a;
                    count_frame(d, tokens, n, a, e);
                }
            }
        }
        d->runs[2 * nruns] = i;
        d->runs[2 * nruns++ + 1] = e;
        i = e;
    }
    count_joined_runs(d, tokens, n, nruns, start);
    count_initials(d, tokens, n, nruns);
    count_listed(d, tokens, n);
    count_together(d, tokens, nalone, nruns);
    d->sentences++;
    if (start == 0) count_head(d, tokens, nruns, colon);
    count_acronyms(d, tokens, n);
    count_spelled(d, tokens, n);
    if (d->spans.n > d->p.max_table) {
        counter_prune(&d->spans);
        d->pruned++;
    }
    if (d->together.n > d->p.max_table) counter_prune(&d->together);
    if (d->initials.n > d->p.max_table) counter_prune(&d->initials);
    if (d->heads.n > d->p.max_table) counter_prune(&d->heads);
    if (d->spelled.n > d->p.max_table) counter_prune(&d->spelled);
    if (d->frames.n > d->p.max_table) counter_prune(&d->frames);
}

void discover_add_link(discover *d, const char *name, int64_t links) {
    counter_add(&d->links, name, strlen(name), MID, links);
}

/* The case-folded form of s[0..len) (malloc'd), or NULL when it is no valid UTF-8. */
static char *case_folded(const char *s, size_t len) {
    char *copy = xasprintf("%.*s", (int)len, s);
    utf8proc_uint8_t *folded = NULL;
    utf8proc_ssize_t m = utf8proc_map((const utf8proc_uint8_t *)copy, 0, &folded, UTF8PROC_NULLTERM | UTF8PROC_CASEFOLD | UTF8PROC_COMPOSE);
    free(copy);
    return m < 0 ? NULL : (char *)folded;
}

/* Is the token an abbreviation in capitals and periods ("U.S.", "U.K.",
 * "H.K."), which the text puts before common nouns as an adjective ("U.S.
 * position") as often as it starts a name ("U.S. Treasury")? */
static int dotted_abbreviation(const char *t) {
    size_t caps = 0, dots = 0, n = strlen(t);
    for (size_t i = 0; i < n; i++) {
        if (t[i] >= 'A' && t[i] <= 'Z') caps++;
        else if (t[i] == '.') dots++;
        else return 0;
    }
    return caps >= 1 && dots >= 1;
}

/* The candidates of several words seen min_count times, case-folded, into d->lower. */
static void lower_case_keys(discover *d) {
    const counter *sp = &d->spans;
    for (size_t s = 0; s < sp->map.cap; s++) {
        if (!sp->map.hash[s] || !memchr(sp->map.key[s], ' ', sp->map.klen[s])) continue;
        const int64_t *v = sp->v + sp->map.val[s] * sp->slots;
        if (v[MID] + v[INIT] < d->p.min_count) continue;
        char *f = case_folded(sp->map.key[s], sp->map.klen[s]);
        if (f) counter_slots(&d->lower, f, strlen(f));
        free(f);
    }
}

void discover_add_lower_case(discover *d, char *const *tokens, int n) {
    if (!d->lower_pass) {
        lower_case_keys(d);
        d->lower_pass = 1;
    }
    for (int a = 0; a < n; a++) {
        int lower = lower_case_word(tokens[a]);
        if (!lower && !dotted_abbreviation(tokens[a])) continue;
        int words = lower; /* lower-case words in tokens[a..b] */
        for (int b = a + 1; b < n && b < a + d->p.max_len; b++) {
            if (!lower_case_word(tokens[b]) && !is_number(tokens[b])) break; /* written in lower case, no punctuation */
            words += lower_case_word(tokens[b]);
            if (!words) continue; /* "U.S. 1987" is no lower-case form */
            size_t len = join(d, tokens, a, b, ' ');
            char *f = lower ? NULL : case_folded(d->key, len); /* "U.S. position" -> "u.s. position" */
            if (!lower && !f) break; /* no valid UTF-8 */
            int64_t i = strmap_get(&d->lower.map, f ? f : d->key, f ? strlen(f) : len);
            free(f);
            if (i >= 0) d->lower.v[i * d->lower.slots + (lower ? MID : LOWER_TAIL)]++;
        }
    }
}

/* ---------------- selection ---------------- */

/* Occurrences of the capitalised word `w` away from sentence starts (*mid)
 * and of its case-folded form anywhere (*lower). */
static void case_counts(const discover *d, const char *w, size_t len, int64_t *mid, int64_t *lower) {
    int64_t i = strmap_get(&d->words.map, w, len);
    *mid = i < 0 ? 0 : d->words.v[i * d->words.slots + MID];
    *lower = 0;
    char *folded = case_folded(w, len);
    if (folded && (strlen(folded) != len || memcmp(folded, w, len)))
        *lower = counter_total(&d->words, folded, strlen(folded));
    free(folded);
}

/* Is the capitalised word `w` a common word: its case-folded form more than
 * twice as frequent as `w` away from sentence starts (*mid)? */
static int lower_case_dominates(const discover *d, const char *w, size_t len, int64_t *mid) {
    int64_t lower;
    case_counts(d, w, len, mid, &lower);
    return lower > 2 * *mid;
}

/* Is the capitalised word `w` usually capitalised: seen capitalised away from
 * sentence starts, and no common word? */
static int usually_capitalised(const discover *d, const char *w, size_t len) {
    int64_t mid;
    return !lower_case_dominates(d, w, len, &mid) && mid >= 1;
}

/* A first name or title ("Greta", "Sir", "Mr."), not a common word that also
 * heads or qualifies names ("Lake", "North", "New", "Upper", "General"): its
 * lower-case form is at most PROPER_LOWER_SHARE as frequent as the word
 * capitalised away from sentence starts. */
#define PROPER_LOWER_SHARE 0.15
static int proper_word(const discover *d, const char *w, size_t len) {
    int64_t mid, lower;
    case_counts(d, w, len, &mid, &lower);
    return mid >= 1 && (double)lower <= PROPER_LOWER_SHARE * (double)mid;
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
    int64_t whole;      /* occurrences as a whole run of name words */
    int64_t whole_any, ends; /* whole runs, sentence starts included; those that ended a phrase (ends_phrase) */
    int64_t linked;     /* links to it (discover_add_link) */
    int64_t framed;     /* whole runs in its most frequent frame (count_frame) */
    int64_t measured;   /* whole runs after a quantity (after_quantity) */
    int64_t whole_rest; /* whole runs only as the rest of a sentence-initial run */
    int kept;
    int headword;       /* kept as the first name of a definition head */
    int first_name;     /* dropped as a first name alone (drop_first_names) */
    int64_t into;       /* merged into this candidate (a variant of its name), or -1 */
    int64_t named_as;   /* the alias that names its entity (head_name), or -1: its own key */
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
            if (!is_joiner(k + o, wl)) break;
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
            if (!is_joiner(k + b, e - b)) break;
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
            if (!is_joiner(k + b, le - b)) break;
            if (b == 0) { le = 0; break; }
            le = b - 1;
        }
        size_t rb = gap + 1;
        for (;;) {
            const char *nx = memchr(k + rb, ' ', c->len - rb);
            size_t wl = nx ? (size_t)(nx - (k + rb)) : c->len - rb;
            if (!is_joiner(k + rb, wl)) break;
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

/* A word of a name that is a fragment of its context: a name joined by a
 * hyphen to a lower-case word that the text also writes alone ("C-like",
 * "U.S.-backed", "Bank-led"; not "Kai-shek"). */
#define FRAGMENT_MIN_ALONE 5
static int fragment_word(const discover *d, const char *w, size_t len) {
    const char *h = memrchr(w, '-', len);
    if (!h || h == w) return 0;
    size_t sl = len - (size_t)(h + 1 - w);
    if (sl < 2) return 0;
    for (size_t k = 1; k <= sl; k++)
        if (h[k] < 'a' || h[k] > 'z') return 0;
    return counter_total(&d->words, h + 1, sl) >= FRAGMENT_MIN_ALONE;
}

/* A name made of two names joined by "and" or "&" is one when it is at least
 * half as frequent as the more frequent of them ("Securities and Exchange
 * Commission"; not "IBM and Microsoft"). */
static int and_span_complete(const cand *cs, const strmap *index, const cand *c) {
    for (size_t b = 0, e; b < c->len; b = e + 1) {
        const char *sp = memchr(c->key + b, ' ', c->len - b);
        e = sp ? (size_t)(sp - c->key) : c->len;
        if (!is_and(c->key + b, e - b)) continue;
        int64_t l = span_index(index, c->key, b - 1), r = span_index(index, c->key + e + 1, c->len - e - 1);
        int64_t most = l >= 0 ? cs[l].count : 0;
        if (r >= 0 && cs[r].count > most) most = cs[r].count;
        return 2 * c->count >= most;
    }
    return 1;
}

/* Is the candidate shaped like a name: no fragment word, no prefix ("YA-",
 * "Ob-": the name ends with a hyphen), no company designator or name suffix
 * alone ("Inc.", "Jr."), a one-letter word only when listed with other
 * names at least min_count times ("C , Pascal"), a number only after words
 * that are no common words ("Windows 95", not "Section 5"), two names joined
 * by "and" only when complete (and_span_complete)? */
static int name_shaped(const discover *d, const cand *cs, const strmap *index, const cand *c) {
    size_t last = 0;
    if (c->key[c->len - 1] == '-') return 0;
    for (size_t b = 0, e; b < c->len; b = e + 1) {
        const char *sp = memchr(c->key + b, ' ', c->len - b);
        e = sp ? (size_t)(sp - c->key) : c->len;
        if (fragment_word(d, c->key + b, e - b)) return 0;
        last = b;
    }
    if (in_list(TITLES, c->key + last, c->len - last)) return 0; /* "Finance Minister", "Vice President" */
    if (c->ntok == 1) {
        if (in_list(DESIGNATORS, c->key, c->len) || in_list(NAME_SUFFIXES, c->key, c->len)) return 0;
        int64_t i = strmap_get(&d->words.map, c->key, c->len);
        int nl = letters(c->key);
        return nl >= 2 || (nl == 1 && i >= 0 && d->words.v[i * d->words.slots + LISTED] >= d->p.min_count);
    }
    char lastw[16];
    size_t ll = c->len - last;
    if (ll < sizeof lastw) {
        memcpy(lastw, c->key + last, ll);
        lastw[ll] = 0;
        if (is_number(lastw))
            for (size_t b = 0, e; b < last; b = e + 1) {
                e = (size_t)((const char *)memchr(c->key + b, ' ', c->len - b) - c->key);
                int64_t mid;
                if (lower_case_dominates(d, c->key + b, e - b, &mid)) return 0;
            }
    }
    return and_span_complete(cs, index, c);
}

#define COMMON_ALONE_RATIO 1.0
/* Is the one-word candidate a common word that the text capitalises inside
 * longer names ("Fund", "Environmental", "Language" in "A Language for
 * ..."): its lower-case form more frequent than its whole-run occurrences,
 * where it stands alone as a name? Not an acronym in capitals ("BASIC"). */
static int common_alone(const discover *d, const cand *c) {
    if (strspn(c->key, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == c->len) return 0; /* an acronym: "BASIC", "FLOPS" */
    int64_t mid, lower;
    case_counts(d, c->key, c->len, &mid, &lower);
    return (double)lower > COMMON_ALONE_RATIO * (double)c->whole;
}

/* The share of a candidate's occurrences that must be whole runs of name
 * words: min_alone, but COMMON_FIRST_ALONE for a name of several words that
 * starts with a common word and has no proper word after it but company
 * designators ("Services Inc", "Bankers Association", "Encoding Rules",
 * parts of "Aero Services Inc", "Swiss Bankers Association"...; "General
 * Electric Co", "World Bank" are whole runs more often than not). */
#define COMMON_FIRST_ALONE 0.5
static double min_alone_share(const discover *d, const cand *c) {
    const char *sp = memchr(c->key, ' ', c->len);
    int64_t mid;
    if (!sp || d->p.min_alone >= COMMON_FIRST_ALONE || !lower_case_dominates(d, c->key, (size_t)(sp - c->key), &mid))
        return d->p.min_alone;
    /* unless a later word is a proper word other than a designator: "New Jersey", "New Hampshire" */
    for (size_t b = (size_t)(sp - c->key) + 1, e; b < c->len; b = e + 1) {
        const char *nx = memchr(c->key + b, ' ', c->len - b);
        e = nx ? (size_t)(nx - c->key) : c->len;
        if (!in_list(DESIGNATORS, c->key + b, e - b) && proper_word(d, c->key + b, e - b)) return d->p.min_alone;
    }
    return COMMON_FIRST_ALONE;
}

/* Is the candidate an adjective ("Japanese", "Kuwaiti", "Southeast Asian"):
 * seen as a whole run at least ADJECTIVE_MIN_WHOLE times, and fewer than
 * ADJECTIVE_ENDS of those end a phrase (ends_phrase; names: 15-40% in
 * Reuters, "Japanese" 2%)? */
#define ADJECTIVE_MIN_WHOLE 20
#define ADJECTIVE_ENDS 0.05
static int adjective(const cand *c) {
    return c->whole_any >= ADJECTIVE_MIN_WHOLE && (double)c->ends < ADJECTIVE_ENDS * (double)c->whole_any;
}

/* Is the one-word candidate an adjective made of a name ("Euclidean" of
 * "Euclidean space", "Gaussian", "Keplerian", "Canadian", "Balkanic",
 * "Maltese"): it ends with an adjective suffix (NAME_ADJECTIVE_SUFFIXES), it is
 * a whole run at least min_count times, and at most NAME_ADJECTIVE_ENDS of
 * those runs end a phrase (ends_phrase: a lower-case word follows the others,
 * "Euclidean geometry"; a name ending so, "Hadrian", "Titian", "Christian",
 * "Atlantic", ends a phrase as names do)? The adjective rule without its
 * minimum of ADJECTIVE_MIN_WHOLE runs, for the suffixes that make adjectives. */
static const char *const NAME_ADJECTIVE_SUFFIXES[] = {"ean", "ian", "ic", "ese", "ish", NULL};
#define NAME_ADJECTIVE_ENDS 0.1
static int name_adjective(const discover *d, const cand *c) {
    if (c->ntok != 1 || c->whole_any < d->p.min_count || (double)c->ends > NAME_ADJECTIVE_ENDS * (double)c->whole_any)
        return 0;
    for (const char *const *x = NAME_ADJECTIVE_SUFFIXES; *x; x++) {
        size_t xl = strlen(*x);
        if (c->len > xl + 2 && !memcmp(c->key + c->len - xl, *x, xl) && strspn(c->key + 1, "abcdefghijklmnopqrstuvwxyz") == c->len - 1)
            return 1;
    }
    return 0;
}

/* Is the candidate a unit or a currency ("H.K. Dlrs" in "12 H.K. Dlrs"):
 * at least min_count and UNIT_SHARE of its whole runs after a quantity
 * (after_quantity)? */
#define UNIT_SHARE 0.5
static int unit(const discover *d, const cand *c) {
    return c->measured >= d->p.min_count && (double)c->measured >= UNIT_SHARE * (double)c->whole_any;
}

/* Is the word [w, w + len) one to three initials ("W.", "J.W.", "M.P.")? */
static int initials_word(const char *w, size_t len) {
    if (len < 2 || len > 6 || len % 2) return 0;
    for (size_t k = 0; k < len; k += 2)
        if (w[k] < 'A' || w[k] > 'Z' || w[k + 1] != '.') return 0;
    return 1;
}

/* Is the candidate a fragment of a longer name that "and" or "'s" cuts into
 * runs ("Jenrette" of "Donaldson , Lufkin and Jenrette", "Exchange
 * Commission" of "Securities and Exchange Commission", "Flying Circus" of
 * "Monty Python 's Flying Circus"): at least min_count and FRAMED_SHARE of
 * its whole runs in one frame (count_frame), and no name of several words
 * that starts with a proper word (proper_word: a first name, initials, a
 * place) or has initials inside, as persons named together do ("Andrew
 * Jackson and Michael Jackson", co-authors "M.P. Atkinson & J.W. Schmidt",
 * "Jack W. Davidson"), unless it ends in a company designator ("Haas Co" of
 * "Rohm and Haas Co", "Sons Inc")? */
#define FRAMED_SHARE 0.5
static int framed(const discover *d, const cand *c) {
    if (c->framed < d->p.min_count || (double)c->framed < FRAMED_SHARE * (double)c->whole_any) return 0;
    const char *sp = memchr(c->key, ' ', c->len); /* "Andrew Jackson and Michael Jackson", "M.P. Atkinson & J.W. Schmidt" */
    if (!sp) return 1;
    size_t last = c->len;
    while (c->key[last - 1] != ' ') last--;
    if (in_list(DESIGNATORS, c->key + last, c->len - last)) return 1; /* a company, no person: "Haas Co" of "Rohm and Haas Co" */
    if (proper_word(d, c->key, (size_t)(sp - c->key))) return 0;
    for (size_t b = (size_t)(sp - c->key) + 1, e; b < c->len; b = e + 1) { /* "Jack W. Davidson": "jack" is a common word */
        const char *nx = memchr(c->key + b, ' ', c->len - b);
        if (!nx) break;
        e = (size_t)(nx - c->key);
        if (initials_word(c->key + b, e - b)) return 0;
    }
    return 1;
}

/* Is the candidate of several words an ordinary phrase that the text also
 * writes in lower case ("Image Processing", "Mail User Agent", "Simulation
 * Language" of a title): its lower-case form (the second pass,
 * discover_add_lower_case) at least LOWER_PHRASE_SHARE as frequent as it?
 * Or an abbreviation in periods before a common noun (a headline's "U.S.
 * Position"): the form with only the abbreviation capitalised ("U.S.
 * position", LOWER_TAIL) as frequent as that? */
#define LOWER_PHRASE_SHARE 0.25
static int lower_case_phrase(const discover *d, const cand *c) {
    if (c->ntok < 2 || !d->lower_pass) return 0;
    char *f = case_folded(c->key, c->len);
    int64_t i = f ? strmap_get(&d->lower.map, f, strlen(f)) : -1;
    free(f);
    if (i < 0) return 0;
    const int64_t *v = d->lower.v + i * d->lower.slots;
    return (double)v[MID] >= LOWER_PHRASE_SHARE * (double)c->count || (double)v[LOWER_TAIL] >= LOWER_PHRASE_SHARE * (double)c->count;
}

/* The length of the candidate's words before a last word that is a year,
 * four digits 1900 to 2099 ("Springer 1989" -> 8), or 0. */
static size_t before_year(const cand *c) {
    if (c->ntok < 2 || c->len < 6) return 0;
    const char *y = c->key + c->len - 4;
    if (y[-1] != ' ' || strspn(y, "0123456789") != 4 || !((y[0] == '1' && y[1] == '9') || (y[0] == '2' && y[1] == '0')))
        return 0;
    return (size_t)(y - 1 - c->key);
}

/* Per words before a year (before_year), the candidates seen min_count times
 * that end in a year after them ("Springer" -> 9 in FOLDOC: "Springer 1980",
 * "Springer 1984"...), into *years. */
static void count_cited_years(const discover *d, const cand *cs, int64_t n, strmap *years) {
    strmap_init(years);
    for (int64_t i = 0; i < n; i++) {
        size_t b = before_year(&cs[i]);
        if (b && cs[i].count >= d->p.min_count) strmap_add(years, cs[i].key, b, 1);
    }
}

/* Is the candidate a reference to a cited work, an author or publisher and
 * the year ("A-W 1989", "Springer 1992", "MIT Press 1987"): it ends in a year,
 * the words before it end at least CITED_YEARS candidates with different years,
 * and the text never links it (a series of models or documents that the text
 * links, "RFC 2045", "RFC 2046", is kept)? */
#define CITED_YEARS 2
static int cited_year(const strmap *years, const cand *c) {
    size_t b = before_year(c);
    return b && c->linked == 0 && strmap_get(years, c->key, b) >= CITED_YEARS;
}

/* Is the one-word candidate a capital letter, a hyphen and a capitalised
 * word ("D-Tex", "R-Iowa", "C-Prolog")? */
static int letter_prefixed(const cand *c) {
    return c->ntok == 1 && c->len >= 4 && c->key[0] >= 'A' && c->key[0] <= 'Z' && c->key[1] == '-' && c->key[2] >= 'A' &&
           c->key[2] <= 'Z';
}

/* Per capital letter, the candidates seen min_count times that it starts with
 * a hyphen (letter_prefixed), into tags[26]. */
static void count_letter_prefixes(const discover *d, const cand *cs, int64_t n, int64_t tags[26]) {
    memset(tags, 0, 26 * sizeof *tags);
    for (int64_t i = 0; i < n; i++)
        if (letter_prefixed(&cs[i]) && cs[i].count >= d->p.min_count) tags[cs[i].key[0] - 'A']++;
}

/* Is the candidate a tag, a letter before the names of a family ("D-Tex",
 * "D-Iowa", "R-Kan": a senator's party and state): letter_prefixed, the letter
 * starting at least TAG_FAMILY such candidates, and never linked ("C-Prolog",
 * "C-INTERCAL": a letter of two)? */
#define TAG_FAMILY 5
static int letter_tag(const int64_t tags[26], const cand *c) {
    return letter_prefixed(c) && c->linked == 0 && tags[c->key[0] - 'A'] >= TAG_FAMILY;
}

/* Is the candidate of two words a name alone in periods and a common word
 * after it ("U.K. Currency", "U.S. Plans", "U.K. Companies" of headlines): the
 * first word an abbreviation in periods that is a whole run of its own at
 * least min_count times ("U.K.", "U.S."; not initials, "J.P. Industries"), the
 * second a common word (lower_case_dominates)? */
static int abbreviation_and_common_word(const discover *d, const cand *cs, const strmap *index, const cand *c) {
    if (c->ntok != 2) return 0;
    const char *sp = memchr(c->key, ' ', c->len);
    size_t fl = (size_t)(sp - c->key), sl = c->len - fl - 1;
    char first[16];
    if (fl >= sizeof first) return 0;
    memcpy(first, c->key, fl);
    first[fl] = 0;
    if (!dotted_abbreviation(first)) return 0;
    int64_t a = span_index(index, c->key, fl), mid;
    return a >= 0 && cs[a].whole_any >= d->p.min_count && lower_case_dominates(d, sp + 1, sl, &mid);
}

/* Is the one-word candidate two names joined by a hyphen or a slash that
 * qualifies a noun ("U.S.-Soviet talks", "Iran-Iraq war", "U.S./Soviet
 * relations", "East-West trade"): each part a
 * whole run of its own at least min_count times, the second no acronym
 * ("CD-ROM", "IBM-PC" are names), and under ADJECTIVE_ENDS of its whole runs
 * end a phrase (adjective, without its minimum)? */
static int joined_adjective(const discover *d, const cand *cs, const strmap *index, const cand *c) {
    if (c->ntok != 1 || !c->whole_any || (double)c->ends >= ADJECTIVE_ENDS * (double)c->whole_any) return 0;
    size_t fl = strcspn(c->key, "-/");
    if (fl == 0 || fl >= c->len || strcspn(c->key + fl + 1, "-/") < c->len - fl - 1) return 0;
    const char *h = c->key + fl;
    size_t sl = c->len - fl - 1;
    if (strspn(h + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") >= sl) return 0;
    int64_t a = span_index(index, c->key, fl), b = span_index(index, h + 1, sl);
    return a >= 0 && b >= 0 && cs[a].whole_any >= d->p.min_count && cs[b].whole_any >= d->p.min_count;
}

/* Is the candidate whole only after a sentence's capitalised first word
 * ("Flooring Systems Inc" of "Interface Flooring Systems Inc said", "Memories
 * Inc" of "Monolithic Memories Inc said"): every whole run of it is the rest of
 * a sentence-initial run whose first word was taken for a common word, and its
 * own first word is no proper word ("Yesterday Reagan spoke": proper_word)? */
static int whole_after_first_word_only(const discover *d, const cand *c) {
    if (!c->whole_any || c->whole_rest < c->whole_any) return 0;
    const char *sp = memchr(c->key, ' ', c->len);
    return !proper_word(d, c->key, sp ? (size_t)(sp - c->key) : c->len);
}

/* Is the one-word candidate a grade that the text qualifies with a hyphen
 * ("BBB" beside "BBB-plus" and "BBB-minus", "AA", "A-1"): glued to a
 * lower-case word (count_glued) at least min_count times and at least as
 * often as it is a whole run ("U.S." of "U.S.-based" is mostly alone)? */
static int glued_grade(const discover *d, const cand *c) {
    if (c->ntok != 1) return 0;
    int64_t i = strmap_get(&d->words.map, c->key, c->len);
    int64_t g = i < 0 ? 0 : d->words.v[i * d->words.slots + GLUED];
    return g >= d->p.min_count && g >= c->whole_any;
}

/* Is the name-shaped candidate no name by a counted rule (the table of
 * docs/discovery-benchmark.md): an ordinary phrase, a cited work's reference,
 * a tag; and, unless the text links it (linked: a link outweighs these
 * counts), an adjective, an adjective made of a name, a fragment in a frame, a unit, an abbreviation and a
 * common word, two names joined as an adjective, a run whole only after a
 * sentence's first word, a grade? years and tags: count_cited_years,
 * count_letter_prefixes. */
static int counted_no_name(const discover *d, const cand *cs, const strmap *index, const strmap *years, const int64_t tags[26],
                           const cand *c, int linked) {
    if (lower_case_phrase(d, c) || cited_year(years, c) || letter_tag(tags, c)) return 1;
    return !linked && (adjective(c) || name_adjective(d, c) || framed(d, c) || unit(d, c) || abbreviation_and_common_word(d, cs, index, c) ||
                       joined_adjective(d, cs, index, c) || whole_after_first_word_only(d, c) || glued_grade(d, c));
}

/* Links to the candidate's own spelling (discover_add_link), 0 when the text
 * links its lower-case form as often ("{Software}" at a sentence start,
 * "{software}" elsewhere: a common word). */
static int64_t links_to(const discover *d, const cand *c) {
    int64_t l = strmap_get(&d->links.map, c->key, c->len);
    if (l < 0) return 0;
    int64_t exact = d->links.v[l * d->links.slots + MID], lower = 0;
    char *f = case_folded(c->key, c->len);
    if (f && (strlen(f) != c->len || memcmp(f, c->key, c->len))) {
        int64_t k = strmap_get(&d->links.map, f, strlen(f));
        lower = k < 0 ? 0 : d->links.v[k * d->links.slots + MID];
    }
    free(f);
    return exact > lower ? exact : 0;
}

/* Is the candidate a linked name: the text's link markup pointed at it at
 * least min_count times and it is seen min_count times? Such a name is kept
 * whatever the counted filters of fragments, adjectives, phrases and first
 * names say; it must still be shaped like a name (name_shaped) and, of one
 * word, no common word ("{Home}" as a link's label). */
static int linked_name(const discover *d, const cand *c) {
    return c->linked >= d->p.min_count && c->count >= d->p.min_count;
}

/* Plurals of kept names ("GUIs" of "GUI", "Macintoshes"), no names of their
 * own: dropped when the singular is kept, or is an adjective made of a name
 * ("Canadians" of "Canadian": name_adjective), and at least as frequent. */
static void drop_plurals(const discover *d, cand *cs, int64_t n, const strmap *index) {
    for (int64_t i = 0; i < n; i++) {
        cand *c = &cs[i];
        if (!c->kept || c->len < 3 || c->key[c->len - 1] != 's' || c->key[c->len - 2] == 's') continue;
        for (size_t cut = 1; cut <= 2; cut++) {
            if (cut == 2 && c->key[c->len - 2] != 'e') break;
            int64_t st = span_index(index, c->key, c->len - cut);
            if (st >= 0 && (cs[st].kept || name_adjective(d, &cs[st])) && cs[st].count >= c->count) {
                c->kept = 0;
                break;
            }
        }
    }
}

static int by_length_desc(const void *a, const void *b) {
    const cand *x = *(cand *const *)a, *y = *(cand *const *)b;
    if (x->ntok != y->ntok) return x->ntok > y->ntok ? -1 : 1;
    return strcmp(x->key, y->key);
}

typedef struct {
    const char *key; /* "ACR\texpansion" */
    size_t alen;     /* bytes of ACR */
    int64_t expansion, count; /* the expansion's candidate (root() gives its entity) */
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

/* Aliases of the candidates: per candidate a list of names (into the span
 * counter's arena or the acronym counter's keys). */
typedef struct {
    int64_t *head; /* candidate -> first node, -1 = none */
    struct alias_node {
        const char *s;
        uint32_t len;
        merge_rule rule;
        int64_t next;
    } *node;
    int64_t n, cap;
} aliases;

static void alias_add(aliases *al, int64_t to, const char *s, size_t len, merge_rule rule) {
    if (al->n == al->cap) {
        al->cap = al->cap * 2 + 256;
        al->node = xrealloc(al->node, sizeof *al->node * (size_t)al->cap);
    }
    al->node[al->n] = (struct alias_node){s, (uint32_t)len, rule, al->head[to]};
    al->head[to] = al->n++;
}

/* The candidate that c was merged into, following the chain. */
static int64_t root(const cand *cs, int64_t c) {
    while (cs[c].into >= 0) c = cs[c].into;
    return c;
}

/* Candidate v (kept) becomes an alias of candidate t (kept) by `rule`, with
 * its aliases; t gains `mentions` of v's occurrences. */
static void merge(cand *cs, aliases *al, int64_t v, int64_t t, int64_t mentions, merge_rule rule) {
    cs[v].kept = 0;
    cs[v].into = t;
    cs[t].count += mentions;
    alias_add(al, t, cs[v].key, cs[v].len, rule);
    for (int64_t k = al->head[v], next; k >= 0; k = next) {
        next = al->node[k].next;
        al->node[k].next = al->head[t];
        al->head[t] = k;
    }
    al->head[v] = -1;
}

/* Is candidate a preferred to b as the name of their entity: more frequent, then first by bytes? */
static int preferred(const cand *a, const cand *b) {
    if (a->count != b->count) return a->count > b->count;
    size_t l = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->key, b->key, l);
    return c ? c < 0 : a->len < b->len;
}

/* Spelling key of a name: case-folded, without spaces, hyphens, periods,
 * apostrophes and slashes ("Chiang Kai-Shek" ~ "Chiang Kai-shek", "UNIX" ~
 * "Unix", "U. S." ~ "U.S.", "HP/UX" ~ "HP-UX"). */
static char *spelling_key(const char *s, size_t len, size_t *klen) {
    char *copy = xasprintf("%.*s", (int)len, s);
    utf8proc_uint8_t *folded = NULL;
    utf8proc_ssize_t m = utf8proc_map((const utf8proc_uint8_t *)copy, 0, &folded,
                                      UTF8PROC_NULLTERM | UTF8PROC_CASEFOLD | UTF8PROC_COMPOSE);
    free(copy);
    if (m < 0) return NULL;
    char *q = (char *)folded;
    for (const char *p = (char *)folded; *p; p++)
        if (!strchr(" -.'/", *p)) *q++ = *p;
    *q = 0;
    *klen = (size_t)(q - (char *)folded);
    return (char *)folded;
}

/* Two spellings that each head a definition of their own ("MAC" and "Mac",
 * "POP" and "PoP" in a dictionary) name two things. */
static int distinct_headwords(const cand *a, const cand *b) { return a->headword && b->headword; }

/* Kept candidates that are spelled alike (spelling_key) become aliases of the
 * preferred one, unless both are headwords (distinct_headwords). */
static void merge_spelling_variants(cand *cs, int64_t n, aliases *al) {
    strmap best; /* spelling key -> preferred candidate */
    strmap_init(&best);
    char **keys = xcalloc((size_t)n + 1, sizeof *keys);
    size_t *klens = xcalloc((size_t)n + 1, sizeof *klens);
    for (int64_t i = 0; i < n; i++) {
        if (!cs[i].kept || !(keys[i] = spelling_key(cs[i].key, cs[i].len, &klens[i])) || !klens[i]) continue;
        int64_t b = strmap_get(&best, keys[i], klens[i]);
        if (b < 0) strmap_put(&best, keys[i], klens[i], i);
        else if (preferred(&cs[i], &cs[b])) strmap_add(&best, keys[i], klens[i], i - b);
    }
    for (int64_t i = 0; i < n; i++) {
        if (!keys[i] || !klens[i]) continue;
        int64_t b = strmap_get(&best, keys[i], klens[i]);
        if (b != i && !distinct_headwords(&cs[i], &cs[b])) merge(cs, al, i, b, cs[i].count, MERGE_SPELLING);
    }
    for (int64_t i = 0; i < n; i++) free(keys[i]);
    free(keys);
    free(klens);
    strmap_free(&best);
}

/* Has the candidate a connector word ("District of Columbia")? */
static int has_connector(const cand *c) {
    for (size_t b = 0, e; b < c->len; b = e + 1) {
        const char *sp = memchr(c->key + b, ' ', c->len - b);
        e = sp ? (size_t)(sp - c->key) : c->len;
        if (is_joiner(c->key + b, e - b)) return 1;
    }
    return 0;
}

/* Is the word of two or more letters written in capitals ("ETH", "IBM")? */
static int in_capitals(const char *w, size_t len) {
    return len >= 2 && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == len;
}

/* First names: proper words (proper_word) put before other words. GIVEN:
 * the text puts the word before at least GIVEN_MIN_SURNAMES different
 * proper words and before common words at most a quarter as often ("Alan
 * Turing", "Alan Kay"; not "Franz Lisp" alone, not "British Columbia",
 * "British Airways", "British Petroleum", not "Turbo Pascal", "Turbo
 * Vision"); GIVEN words that are no names of their own (given_name) are the
 * counted sign that a long form is a person's name. FIRST: before at least
 * FIRST_MIN_SURNAMES surnames — proper words that follow at most
 * SURNAME_MAX_FIRSTS different words — and before more surnames than other
 * words ("Dick Bruin", "Dick Depew"; not "Oxford University", "Oxford U",
 * "Texas Instruments": "University" follows many words). The map holds
 * GIVEN | FIRST. */
#define GIVEN_MIN_SURNAMES 2
#define SURNAME_MAX_FIRSTS 2
#define FIRST_MIN_SURNAMES 3
enum { GIVEN = 1, FIRST = 2 };

/* Per word that ends a candidate of two words, how many such candidates end
 * with it: how many different words the text puts before it (a surname
 * follows few: SURNAME_MAX_FIRSTS), into *second. */
static void count_second_words(const cand *cs, int64_t n, strmap *second) {
    strmap_init(second);
    for (int64_t i = 0; i < n; i++) {
        const cand *c = &cs[i];
        if (c->ntok != 2) continue;
        const char *sp = memchr(c->key, ' ', c->len);
        size_t sl = c->len - (size_t)(sp + 1 - c->key);
        if (strmap_get(second, sp + 1, sl) < 0) strmap_put(second, sp + 1, sl, 1);
        else strmap_add(second, sp + 1, sl, 1);
    }
}

/* second: count_second_words. */
static void find_first_names(const discover *d, const cand *cs, int64_t n, const strmap *second, strmap *firsts) {
    strmap first; /* first word -> index into tally */
    strmap_init(&first);
    int64_t (*tally)[3] = NULL, nt = 0; /* [0]: proper second words, [1]: common ones, [2]: surnames among [0] */
    for (int64_t i = 0; i < n; i++) {
        const cand *c = &cs[i];
        if (c->ntok != 2) continue;
        const char *sp = memchr(c->key, ' ', c->len);
        size_t fl = (size_t)(sp - c->key), sl = c->len - fl - 1;
        if (c->key[0] >= 'a' && c->key[0] <= 'z') continue; /* a particle: "von Neumann" */
        int64_t t = strmap_get(&first, c->key, fl);
        if (t < 0) {
            tally = xrealloc(tally, sizeof *tally * (size_t)(nt + 1));
            tally[nt][0] = tally[nt][1] = tally[nt][2] = 0;
            strmap_put(&first, c->key, fl, t = nt++);
        }
        int64_t mid;
        if (proper_word(d, sp + 1, sl)) {
            tally[t][0]++;
            tally[t][2] += strmap_get(second, sp + 1, sl) <= SURNAME_MAX_FIRSTS;
        } else if (lower_case_dominates(d, sp + 1, sl, &mid)) {
            tally[t][1]++;
        }
    }
    for (size_t s = 0; s < first.cap; s++) {
        if (!first.hash[s] || !proper_word(d, first.key[s], first.klen[s])) continue;
        const int64_t *t = tally[first.val[s]];
        int64_t kind = (t[0] >= GIVEN_MIN_SURNAMES && 4 * t[1] <= t[0] ? GIVEN : 0) |
                       (t[2] >= FIRST_MIN_SURNAMES && t[2] > t[0] - t[2] + t[1] ? FIRST : 0);
        if (kind) strmap_put(firsts, first.key[s], first.klen[s], kind);
    }
    free(tally);
    strmap_free(&first);
}

/* Is the word a given name: a GIVEN first name (find_first_names) that is no
 * name of its own (neither kept nor merged) and not written in capitals, as
 * an acronym is ("ETH Zurich", "CS TR")? */
static int given_name(const cand *cs, const strmap *index, const strmap *firsts, const char *w, size_t len) {
    int64_t kind = strmap_get(firsts, w, len);
    if (kind < 0 || !(kind & GIVEN) || in_capitals(w, len)) return 0;
    int64_t i = strmap_get(index, w, len);
    return !(i >= 0 && (cs[i].kept || cs[i].into >= 0));
}

/* The one-word candidate that the word [b, e) of c->key is, or -1. */
static int64_t word_candidate(const strmap *index, const cand *c, size_t b, size_t e) {
    return span_index(index, c->key + b, e - b);
}

/* A first name alone ("Thomas" of "Thomas Edison", "Dick", "Charles"): a kept
 * one-word name that the text uses as a first name (find_first_names), that
 * is a whole run of name words in fewer than FIRST_NAME_ALONE of its
 * occurrences, that starts spans of two words ("Dick Bruin") more than
 * FIRST_NAME_BEFORE times as often as it ends spans of two or three
 * ("University of Edinburgh": a place, not a first name), and none of whose
 * spans of two words holds half of those (a company's short form: "Morgan"
 * of "Morgan Stanley", "Cray" of "Cray Research") is no entity, and no item
 * of a definition head; a linked name stays. */
#define FIRST_NAME_ALONE 0.5
#define FIRST_NAME_BEFORE 2
static void drop_first_names(cand *cs, int64_t n, const strmap *index, const strmap *firsts) {
    int64_t *before = xcalloc((size_t)n + 1, sizeof *before), *after = xcalloc((size_t)n + 1, sizeof *after);
    int64_t *most = xcalloc((size_t)n + 1, sizeof *most); /* its most frequent span of two words */
    for (int64_t i = 0; i < n; i++) {
        const cand *c = &cs[i];
        if (c->ntok != 2 && c->ntok != 3) continue;
        const char *first = memchr(c->key, ' ', c->len), *last = memrchr(c->key, ' ', c->len);
        int64_t f = word_candidate(index, c, 0, (size_t)(first - c->key));
        int64_t l = word_candidate(index, c, (size_t)(last + 1 - c->key), c->len);
        if (f >= 0 && c->ntok == 2) {
            before[f] += c->count;
            if (c->count > most[f]) most[f] = c->count;
        }
        if (l >= 0) after[l] += c->count;
    }
    for (size_t s = 0; s < firsts->cap; s++) {
        if (!firsts->hash[s]) continue;
        int64_t i = strmap_get(index, firsts->key[s], firsts->klen[s]);
        if (!(firsts->val[s] & FIRST) || i < 0 || !cs[i].kept || cs[i].linked || (double)cs[i].whole >= FIRST_NAME_ALONE * (double)cs[i].count ||
            before[i] <= FIRST_NAME_BEFORE * after[i] || 2 * most[i] >= before[i])
            continue;
        cs[i].kept = 0;
        cs[i].first_name = 1;
    }
    free(before);
    free(after);
    free(most);
}

/* Is c a person's full name: its words before the last given names or
 * initials ("J."), one given name at least ("John W. Backus")? */
static int person_long_form(const cand *cs, const strmap *index, const strmap *firsts, const cand *c) {
    int names = 0;
    for (size_t b = 0, e; b < c->len; b = e + 1) {
        const char *sp = memchr(c->key + b, ' ', c->len - b);
        if (!sp) break;
        e = (size_t)(sp - c->key);
        int initial = e - b == 2 && c->key[b] >= 'A' && c->key[b] <= 'Z' && c->key[b + 1] == '.';
        if (given_name(cs, index, firsts, c->key + b, e - b)) names++;
        else if (!initial) return 0;
    }
    return names > 0;
}

/* How often the one-word name w was seen as a whole run in a sentence with
 * the longer span f (discover.together). */
static int64_t together(const discover *d, const cand *w, const cand *f) {
    char *pair = xasprintf("%.*s\t%.*s", (int)w->len, w->key, (int)f->len, f->key);
    int64_t i = strmap_get(&d->together.map, pair, w->len + 1 + f->len);
    free(pair);
    return i < 0 ? 0 : d->together.v[i * d->together.slots + MID];
}

/* Is s[0, sl) f's key or a part of it that ends it at a word boundary ("Turing" of "Alan M. Turing")? */
static int ends_span(const char *s, size_t sl, const cand *f) {
    return sl <= f->len && !memcmp(f->key + f->len - sl, s, sl) && (sl == f->len || f->key[f->len - sl - 1] == ' ');
}

/* Is the span s[0, sl) a name of its own (kept or merged), other than f, a
 * part of f that ends it, and the names merged with f ("Alan M. Turing", a
 * head's synonym of "Alan Turing")? */
static int other_long_form(const strmap *index, const cand *cs, const char *s, size_t sl, int64_t f) {
    int64_t i = span_index(index, s, sl);
    if (i < 0 || !(cs[i].kept || cs[i].into >= 0)) return 0;
    return f < 0 || (!ends_span(s, sl, &cs[f]) && root(cs, i) != root(cs, f));
}

/* rival[w]: the most sentences that the one-word name w alone shares with
 * another long form ending with it (discover.together; other_long_form than
 * long_form[w]): "Douglas" beside "Roger Douglas" when the long form is
 * "McDonnell Douglas"; SEEN_ALONE when w alone met only other spans ending
 * with it, 0 when none. */
enum { SEEN_ALONE = -1 };
static void rival_long_forms(const discover *d, const strmap *index, const cand *cs, const int64_t *long_form, int64_t *rival) {
    const counter *tg = &d->together;
    for (size_t s = 0; s < tg->map.cap; s++) {
        if (!tg->map.hash[s]) continue;
        const char *key = tg->map.key[s], *tab = memchr(key, '\t', tg->map.klen[s]);
        int64_t w = strmap_get(index, key, (size_t)(tab - key));
        if (w < 0) continue;
        if (!rival[w]) rival[w] = SEEN_ALONE;
        if (!other_long_form(index, cs, tab + 1, tg->map.klen[s] - (size_t)(tab + 1 - key), long_form[w])) continue;
        int64_t k = tg->v[tg->map.val[s] * tg->slots + MID];
        if (k > rival[w]) rival[w] = k;
    }
}

/* Does the one-word name w alone stand for another long form than f: seen
 * in a sentence with a longer span ending with it but never with f ("Eyre ,
 * Lake Eyre": not "Jane Eyre"), or with another long form in more sentences
 * than with f (rival_long_forms)? */
static int stands_for_another(const discover *d, const cand *cs, int64_t w, int64_t f, int64_t rival) {
    int64_t k = together(d, &cs[w], &cs[f]);
    return (rival == SEEN_ALONE && !k) || k < rival;
}

/* Does the text write f followed by a company designator ("McDonnell Douglas
 * Corp") at least min_count times: f names a company? */
static int company_form(const discover *d, const cand *cs, const strmap *index, const cand *f) {
    for (int k = 0; DESIGNATORS[k]; k++) {
        char *form = xasprintf("%.*s %s", (int)f->len, f->key, DESIGNATORS[k]);
        int64_t i = span_index(index, form, strlen(form));
        free(form);
        if (i >= 0 && cs[i].count >= d->p.min_count) return 1;
    }
    return 0;
}

/* A one-word name w and a kept person's full name f that ends with it
 * (person_long_form: "Turing", "Alan Turing") are one entity
 *  - when f is w's usual long form: f is its most frequent one, at least as
 *    frequent as w alone and covers at least half of w's occurrences inside
 *    longer runs of name words; w becomes f's alias ("Washington" alone
 *    outnumbers "George Washington": two entities);
 *  - or when f is w's only person's long form and at least a quarter as
 *    frequent as w alone ("Humphrey Davy"; "Andrew Jackson" and "Michael
 *    Jackson" stay apart from "Jackson"); the one more often seen as a whole
 *    run keeps the name;
 * unless w alone shares more sentences with another span ending with it
 * (rival_long_forms) than with f: "Eyre , Lake Eyre" tells that this "Eyre"
 * is not "Jane Eyre", however frequent the novel, and "Douglas said" beside
 * "Roger Douglas" more often than beside "McDonnell Douglas" that Douglas
 * is the minister, not the company. Nor is w the alias of its usual long
 * form when that names a company (company_form) and another person's long
 * form ends with w too: "Douglas" of "McDonnell Douglas Corp" and of "Roger
 * Douglas" stays a name of its own ("Lilly" of "Eli Lilly" and "Eli Lilly
 * Co", with no other long form, is the company's).
 * Products and places are no persons: "Turbo Pascal", "Franz Lisp",
 * "Internet Explorer", "British Columbia" merge nothing. */
static void merge_surnames(const discover *d, cand *cs, int64_t n, const strmap *index, const strmap *firsts, aliases *al) {
    int64_t *full = xmalloc(sizeof *full * (size_t)(n + 1)); /* w -> its most frequent long form */
    int64_t *only = xmalloc(sizeof *only * (size_t)(n + 1)); /* w -> its person's long form, -2: several */
    int64_t *rival_full = xcalloc((size_t)n + 1, sizeof *rival_full), *rival_only = xcalloc((size_t)n + 1, sizeof *rival_only);
    for (int64_t i = 0; i < n; i++) full[i] = only[i] = -1;
    for (int64_t i = 0; i < n; i++) {
        if (!cs[i].kept || cs[i].ntok < 2 || has_connector(&cs[i])) continue;
        const char *sp = memrchr(cs[i].key, ' ', cs[i].len);
        int64_t w = strmap_get(index, sp + 1, cs[i].len - (size_t)(sp + 1 - cs[i].key));
        if (w < 0 || !cs[w].kept || cs[w].ntok != 1) continue;
        if (full[w] < 0 || preferred(&cs[i], &cs[full[w]])) full[w] = i;
        if (person_long_form(cs, index, firsts, &cs[i])) only[w] = only[w] == -1 ? i : -2;
    }
    rival_long_forms(d, index, cs, full, rival_full);
    rival_long_forms(d, index, cs, only, rival_only);
    for (int64_t w = 0; w < n; w++) {
        int64_t f = full[w];
        if (f < 0 || !cs[f].kept || !cs[w].kept || !person_long_form(cs, index, firsts, &cs[f]) ||
            stands_for_another(d, cs, w, f, rival_full[w]) || (only[w] == -2 && company_form(d, cs, index, &cs[f])))
            continue;
        if (cs[f].count >= cs[w].whole && 2 * cs[f].count >= cs[w].count - cs[w].whole)
            merge(cs, al, w, f, cs[w].whole, MERGE_SURNAME);
    }
    for (int64_t w = 0; w < n; w++) {
        int64_t f = only[w];
        if (f < 0 || !cs[f].kept || !cs[w].kept || 4 * cs[f].count < cs[w].whole || stands_for_another(d, cs, w, f, rival_only[w]))
            continue;
        if (cs[w].whole > cs[f].whole) merge(cs, al, f, w, 0, MERGE_SURNAME); /* w's count has f's occurrences */
        else merge(cs, al, w, f, cs[w].whole, MERGE_SURNAME);
    }
    free(full);
    free(only);
    free(rival_full);
    free(rival_only);
}

/* A name w and its company forms "w Inc", "w Microsystems", "w Computer
 * Inc" (w followed by DESIGNATORS only) are one entity, named w (or what w
 * was merged into): "Sun" ~ "Sun Microsystems", "Textron" ~ "Textron Inc". */
static void merge_organisations(cand *cs, int64_t n, const strmap *index, aliases *al) {
    for (int64_t i = 0; i < n; i++) {
        if (!cs[i].kept || cs[i].ntok < 2) continue;
        const char *sp = memchr(cs[i].key, ' ', cs[i].len);
        int64_t w = strmap_get(index, cs[i].key, (size_t)(sp - cs[i].key));
        if (w < 0 || (!cs[w].kept && cs[w].into < 0)) continue;
        int designated = 1;
        for (size_t b = (size_t)(sp - cs[i].key) + 1, e; b < cs[i].len && designated; b = e + 1) {
            const char *nx = memchr(cs[i].key + b, ' ', cs[i].len - b);
            e = nx ? (size_t)(nx - cs[i].key) : cs[i].len;
            designated = in_list(DESIGNATORS, cs[i].key + b, e - b);
        }
        if (designated && (w = root(cs, w)) != i) merge(cs, al, i, w, 0, MERGE_ORGANISATION); /* w's count has i's occurrences */
    }
}

/* The candidates named by the items of a definition head key, in order (-1:
 * not a candidate); returns how many items. */
static int head_items(const strmap *index, const char *key, size_t len, int64_t *items) {
    int k = 0;
    for (size_t b = 0, e; b < len && k < MAX_HEAD_ITEMS; b = e + 1) {
        const char *tab = memchr(key + b, '\t', len - b);
        e = tab ? (size_t)(tab - key) : len;
        items[k++] = span_index(index, key + b, e - b);
    }
    return k;
}

/* Occurrences of candidate c as a whole run of name words, sentence starts included. */
static int64_t whole_anywhere(const counter *sp, int64_t c) {
    const int64_t *v = sp->v + c * sp->slots;
    return v[WHOLE_MID] + v[WHOLE_INIT];
}

/* A given name alone that mostly stands for one person ("Denis" of "Denis
 * Howe": "Either Denis is programming"), or a company's first word for the
 * company ("Shearson said" of "Shearson Lehman"): a kept one-word name
 * without periods that the text uses as a given name (find_first_names:
 * GIVEN), that is a whole run in fewer than FIRST_NAME_ALONE of its
 * occurrences but ends a phrase at least once (ends_phrase: "Abu" of "Abu
 * Dhabi" and "Abu al-..." never does), no headword and not linked, and that
 * half of its occurrences or more put before one surname (a proper word
 * after at most SURNAME_MAX_FIRSTS different words, no name of its own:
 * "Clayton Yeutter" is called "Yeutter"; second: count_second_words), a kept
 * long form of two words, is an alias of that long form. */
static void merge_given_names(const discover *d, cand *cs, int64_t n, const strmap *index, const strmap *firsts,
                              const strmap *second, aliases *al) {
    int64_t *most = xmalloc(sizeof *most * (size_t)(n + 1)); /* a one-word candidate's most frequent span of two words */
    for (int64_t i = 0; i < n; i++) most[i] = -1;
    for (int64_t i = 0; i < n; i++) {
        const cand *c = &cs[i];
        if (c->ntok != 2) continue;
        int64_t f = word_candidate(index, c, 0, (size_t)((const char *)memchr(c->key, ' ', c->len) - c->key));
        if (f >= 0 && (most[f] < 0 || c->count > cs[most[f]].count)) most[f] = i;
    }
    for (int64_t w = 0; w < n; w++) {
        cand *c = &cs[w];
        int64_t l = most[w], kind = c->kept && c->ntok == 1 ? strmap_get(firsts, c->key, c->len) : -1;
        if (kind < 0 || !(kind & GIVEN) || in_capitals(c->key, c->len) || memchr(c->key, '.', c->len) || c->headword || linked_name(d, c) ||
            (double)c->whole >= FIRST_NAME_ALONE * (double)c->count || c->ends == 0 || l < 0 || 2 * cs[l].count < c->count || (!cs[l].kept && cs[l].into < 0))
            continue;
        const char *sp = memchr(cs[l].key, ' ', cs[l].len);
        size_t so = (size_t)(sp + 1 - cs[l].key);
        int64_t surname = word_candidate(index, &cs[l], so, cs[l].len);
        if (!proper_word(d, cs[l].key + so, cs[l].len - so) || surname < 0 ||
            strmap_get(second, cs[l].key + so, cs[l].len - so) > SURNAME_MAX_FIRSTS ||
            cs[surname].kept || cs[surname].into >= 0)
            continue;
        int64_t t = root(cs, l);
        if (t != w && cs[t].kept) merge(cs, al, w, t, c->whole, MERGE_GIVEN);
    }
    free(most);
}

/* Is the one-word candidate a common word written with a capital ("Note :")? */
static int common_word(const discover *d, const cand *c) {
    int64_t mid;
    return c->ntok == 1 && lower_case_dominates(d, c->key, c->len, &mid);
}

/* The head items that the text spells out as something no item of their
 * head names ("IMNSHO ( In My Not-So-Humble Opinion )" under "IMHO , IMAO ,
 * IMNSHO , IMO : ... In My Humble Opinion"), and never as one of their head's
 * items: a related thing the dictionary lists under the headword, no
 * synonym. Sets apart[c] for them (head_of: a candidate's head slot). */
static void mark_spelled_apart(const discover *d, const int64_t *head_of, int64_t n, const strmap *index, char *apart) {
    const counter *sl = &d->spelled, *hd = &d->heads;
    char *as_item = xcalloc((size_t)n + 1, 1);
    for (size_t p = 0; p < sl->map.cap; p++) {
        if (!sl->map.hash[p]) continue;
        const char *pair = sl->map.key[p], *tab = memchr(pair, '\t', sl->map.klen[p]);
        int64_t a = span_index(index, pair, (size_t)(tab - pair));
        if (a < 0 || head_of[a] < 0) continue;
        size_t h = (size_t)head_of[a], elen = sl->map.klen[p] - (size_t)(tab + 1 - pair);
        if (head_has_item(hd->map.key[h], hd->map.klen[h], tab + 1, elen)) as_item[a] = 1;
        else apart[a] = 1;
    }
    for (int64_t c = 0; c < n; c++) apart[c] &= (char)!as_item[c];
    free(as_item);
}

/* Is the one-word candidate a a short form of the candidate e of several
 * words: a word mostly in capitals (at least two, no fewer than its small
 * letters: "PPGA", "MS-DOS", "COBOL"; not "McCarthy") whose letters are found
 * in e in order, the first at the start of one of e's words and each later one
 * after it ("Plastic Pin Grid Array", "Microsoft Disk Operating System",
 * "COmmon Business Oriented Language"; "NVRAM" of "Non-Volatile Random Access
 * Memory")? Digits and signs of a are skipped ("NT1" of "Network Termination").
 * Letters are matched from the last one back, each to the nearest match, as
 * abbreviations are found in biomedical text (Schwartz and Hearst, 2003). */
static int short_form_of(const cand *a, const cand *e) {
    if (a->ntok != 1 || e->ntok < 2 || a->len > 12) return 0;
    int caps = 0, small = 0;
    for (size_t k = 0; k < a->len; k++) {
        char ch = a->key[k];
        caps += ch >= 'A' && ch <= 'Z';
        small += ch >= 'a' && ch <= 'z';
    }
    if (caps < 2 || small > caps) return 0;
    long first = 0, j = (long)e->len - 1; /* a's first letter: it must match at a word's start */
    while (!isalpha((unsigned char)a->key[first])) first++; /* caps >= 2: there is one */
    for (long i = (long)a->len - 1; i >= first; i--) {
        char ch = a->key[i];
        if (!isalpha((unsigned char)ch)) continue;
        for (; j >= 0; j--)
            if (tolower((unsigned char)e->key[j]) == tolower((unsigned char)ch) &&
                (i > first || j == 0 || e->key[j - 1] == ' ' || e->key[j - 1] == '-'))
                break;
        if (j < 0) return 0;
        j--;
    }
    return 1;
}

/* The name of a head's entity: its first item (the headword), or an item
 * that is a short form of the headword (short_form_of) and that the text
 * writes as a whole run more often than the headword ("PPGA" 11 times,
 * "Plastic Pin Grid Array" twice; "MS-DOS" of "Microsoft Disk Operating
 * System"): the name the text uses, as an acronym merged with its initials'
 * name is named by the more frequent of the two. Called after the head's
 * merges: the item must be an alias of the headword. */
static int64_t head_name(const counter *sp, const cand *cs, const int64_t *items, int k, int64_t first) {
    int64_t name = first;
    for (int j = 0; j < k; j++)
        if (items[j] >= 0 && cs[items[j]].into == first && short_form_of(&cs[items[j]], &cs[first]) && whole_anywhere(sp, items[j]) > whole_anywhere(sp, name))
            name = items[j];
    return name;
}

/* The kept candidates that are spans of c's words other than c itself
 * ("Sherman", "Tecumseh" of "William Tecumseh Sherman"), each once, into
 * parts (room for MAX_PARTS); returns how many. */
#define MAX_PARTS 32
static int kept_parts(const cand *cs, const strmap *index, const cand *c, int64_t *parts) {
    int k = 0;
    for (size_t b = 0; b < c->len; b++) {
        if (b > 0 && c->key[b - 1] != ' ') continue;
        for (size_t e = b + 1; e <= c->len; e++) {
            if ((e < c->len && c->key[e] != ' ') || (b == 0 && e == c->len)) continue;
            int64_t i = span_index(index, c->key + b, e - b);
            if (i < 0 || !cs[i].kept) continue;
            int seen = 0;
            for (int j = 0; j < k; j++) seen |= parts[j] == i;
            if (!seen && k < MAX_PARTS) parts[k++] = i;
        }
    }
    return k;
}

/* The whole-run occurrences a head's counted items (items[j] >= 0) must add
 * up to: min_count, or one fewer when every item is a long form holding a
 * kept name ("Canandaigua Lake , Lake Canandaigua", each seen once; "William
 * Tecumseh Sherman" when "Sherman" heads other definitions too): the
 * dictionary names the long form, and without it the kept part would take
 * its mentions ("Tecumseh" the chief would hold the general's). */
static int64_t head_minimum(const discover *d, const cand *cs, const strmap *index, const int64_t *items, int k) {
    int64_t parts[MAX_PARTS];
    for (int j = 0; j < k; j++)
        if (items[j] >= 0 && (cs[items[j]].ntok < 2 || !kept_parts(cs, index, &cs[items[j]], parts))) return d->p.min_count;
    return d->p.min_count > 2 ? d->p.min_count - 1 : d->p.min_count;
}

/* Completeness for the names a kept head holds: each kept part of its items
 * (kept_parts) gains their whole-run occurrences in covered; afterwards a
 * part seen fewer than min_count times outside them is a fragment of the
 * head's names ("Canandaigua", "Tecumseh" once each outside), no entity,
 * unless it heads a definition itself or the text links it. */
static void cover_parts(const counter *sp, const cand *cs, const strmap *index, const int64_t *items, int k, int64_t *covered) {
    int64_t parts[MAX_PARTS];
    for (int j = 0; j < k; j++) {
        if (items[j] < 0) continue;
        int np = kept_parts(cs, index, &cs[items[j]], parts);
        for (int q = 0; q < np; q++) covered[parts[q]] += whole_anywhere(sp, items[j]);
    }
}

/* The kept parts seen under min_count times outside the kept heads' names
 * that hold them (covered, by cover_parts) are no entities. */
static void drop_covered_parts(const discover *d, cand *cs, int64_t n, const int64_t *covered) {
    for (int64_t i = 0; i < n; i++)
        if (covered[i] > 0 && cs[i].kept && !cs[i].headword && !linked_name(d, &cs[i]) && cs[i].count - covered[i] < d->p.min_count)
            cs[i].kept = 0;
}

/* Definition heads: the name items of one head (discover.heads) name one
 * thing, as a dictionary lists a headword and its synonyms ("Garbo , Greta
 * Garbo , Greta Louisa Gustafsson :"). An item of several different heads
 * ("Charles" heads a king, a river and a physicist) and a common word are no
 * item. When the items' whole-run occurrences add up to min_count (one fewer
 * for long forms holding kept names: head_minimum), the first
 * item is kept, whatever the filters said of it, and the others become its
 * aliases, their occurrences its mentions (its count: at least their sum): a
 * name seen once or twice counts with its synonyms, as the mentions of a
 * hand-made entity list do; the kept names inside them are judged complete
 * again outside them (cover_parts). */
static void merge_heads(const discover *d, cand *cs, int64_t n, const strmap *index, aliases *al) {
    const counter *hd = &d->heads, *sp = &d->spans;
    int64_t *head_of = xmalloc(sizeof *head_of * (size_t)(n + 1)), items[MAX_HEAD_ITEMS];
    int64_t *covered = xcalloc((size_t)n + 1, sizeof *covered);
    for (int64_t i = 0; i < n; i++) head_of[i] = -1; /* candidate -> its head key's slot, -2: several */
    for (size_t s = 0; s < hd->map.cap; s++) {
        if (!hd->map.hash[s]) continue;
        int k = head_items(index, hd->map.key[s], hd->map.klen[s], items);
        for (int j = 0; j < k; j++)
            if (items[j] >= 0) head_of[items[j]] = head_of[items[j]] == -1 || head_of[items[j]] == (int64_t)s ? (int64_t)s : -2;
    }
    char *apart = xcalloc((size_t)n + 1, 1);
    mark_spelled_apart(d, head_of, n, index, apart);
    for (size_t s = 0; s < hd->map.cap; s++) {
        if (!hd->map.hash[s]) continue;
        int k = head_items(index, hd->map.key[s], hd->map.klen[s], items);
        int64_t total = 0, first = -1;
        for (int j = 0; j < k; j++) {
            int64_t c = items[j];
            if (c < 0 || head_of[c] != (int64_t)s || common_word(d, &cs[c]) || name_adjective(d, &cs[c]) || cs[c].first_name ||
                (j > 0 && apart[c])) {
                items[j] = -1;
                continue;
            }
            total += whole_anywhere(sp, c);
            if (first < 0) first = c;
        }
        if (first < 0 || total < head_minimum(d, cs, index, items, k)) continue;
        cover_parts(sp, cs, index, items, k, covered);
        for (int j = 0; j < k; j++)
            if (items[j] >= 0 && items[j] != first && cs[items[j]].into < 0) /* an item written twice is merged once */
                merge(cs, al, items[j], first, 0, MERGE_HEAD);
        cs[first].kept = cs[first].headword = 1;
        if (cs[first].count < total) cs[first].count = total;
        int64_t name = head_name(sp, cs, items, k, first);
        if (name != first) cs[first].named_as = name;
    }
    drop_covered_parts(d, cs, n, covered);
    free(covered);
    free(apart);
    free(head_of);
}

/* The initials of a kept name of several name words, joiners skipped
 * ("Digital Equipment Corporation" -> "DEC", "Securities and Exchange
 * Commission" -> "SEC") into buf; 0 when a word does not start with a
 * capital A-Z or there are more than 8. */
static int name_initials(const cand *c, char *buf) {
    int k = 0;
    for (size_t b = 0, e; b < c->len; b = e + 1) {
        const char *sp = memchr(c->key + b, ' ', c->len - b);
        e = sp ? (size_t)(sp - c->key) : c->len;
        if (is_joiner(c->key + b, e - b)) continue;
        if (k == 8 || c->key[b] < 'A' || c->key[b] > 'Z') return 0;
        buf[k++] = c->key[b];
    }
    buf[k] = 0;
    return k;
}

/* A kept acronym ("DEC": 2 to 8 capitals A-Z) and the only kept name whose
 * initials it is ("Digital Equipment Corporation") are one entity, named by
 * the preferred of the two, when the text has them in one sentence at least
 * once (discover.initials; not "HP" and "Hacker Personality"); an acronym
 * with two such names ("ATM") stays apart. After the acronyms defined in
 * parentheses, which win. */
static void merge_initials(const discover *d, cand *cs, int64_t n, aliases *al) {
    strmap by_initials; /* initials -> the kept name, -2: several */
    strmap_init(&by_initials);
    char buf[16];
    for (int64_t i = 0; i < n; i++) {
        if (!cs[i].kept || cs[i].ntok < 2) continue;
        int k = name_initials(&cs[i], buf);
        if (k < 2) continue;
        int64_t j = strmap_get(&by_initials, buf, (size_t)k);
        if (j == -1) strmap_put(&by_initials, buf, (size_t)k, i);
        else if (j >= 0) strmap_add(&by_initials, buf, (size_t)k, -2 - j);
    }
    for (int64_t a = 0; a < n; a++) {
        const cand *c = &cs[a];
        if (!c->kept || c->ntok != 1 || c->headword || c->len < 2 || c->len > 8 || strspn(c->key, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") < c->len)
            continue;
        int64_t l = strmap_get(&by_initials, c->key, c->len);
        if (l < 0 || !cs[l].kept) continue;
        char *pair = xasprintf("%s\t%s", c->key, cs[l].key);
        int64_t seen = strmap_get(&d->initials.map, pair, strlen(pair));
        free(pair);
        if (seen < 0) continue;
        if (preferred(&cs[a], &cs[l])) merge(cs, al, l, a, cs[l].count, MERGE_INITIALS);
        else merge(cs, al, a, l, cs[a].count, MERGE_INITIALS);
    }
    strmap_free(&by_initials);
}

const char *merge_rule_name(merge_rule r) {
    static const char *const names[MERGE_RULES] = {"spelling", "head", "surname", "organisation", "acronym", "initials", "given"};
    return r >= 0 && r < MERGE_RULES ? names[r] : "";
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
        c->into = c->named_as = -1;
        for (uint32_t k = 0; k < c->len; k++) c->ntok += c->key[k] == ' ';
        const char *spc = memchr(c->key, ' ', c->len);
        size_t fl = spc ? (size_t)(spc - c->key) : c->len;
        const int64_t *v = sp->v + i * sp->slots;
        int initial = v[INIT] && usually_capitalised(d, c->key, fl);
        c->count = v[MID] + (initial ? v[INIT] : 0);
        c->whole = v[WHOLE_MID] + (initial ? v[WHOLE_INIT] : 0);
        c->whole_any = v[WHOLE_MID] + v[WHOLE_INIT];
        c->ends = v[ENDS];
        c->measured = v[MEASURED];
        c->whole_rest = v[WHOLE_REST];
        c->linked = links_to(d, c);
    }
    const counter *fr = &d->frames;
    for (size_t s = 0; s < fr->map.cap; s++) {
        if (!fr->map.hash[s]) continue;
        const char *tab = memchr(fr->map.key[s], '\t', fr->map.klen[s]);
        int64_t i = strmap_get(&sp->map, tab + 1, fr->map.klen[s] - (size_t)(tab + 1 - fr->map.key[s]));
        int64_t k = fr->v[fr->map.val[s] * fr->slots + MID];
        if (i >= 0 && k > cs[i].framed) cs[i].framed = k;
    }
    /* longest first, so that a candidate's kept extensions are known when it is judged */
    cand **order = xmalloc(sizeof *order * (size_t)(n + 1));
    for (int64_t i = 0; i < n; i++) order[i] = &cs[i];
    qsort(order, (size_t)n, sizeof *order, by_length_desc);
    double nwords = d->name_words > 0 ? (double)d->name_words : 1;
    int64_t min = d->p.min_count;
    strmap years;
    count_cited_years(d, cs, n, &years);
    int64_t tags[26];
    count_letter_prefixes(d, cs, n, tags);
    for (int64_t o = 0; o < n; o++) {
        cand *c = order[o];
        int linked = linked_name(d, c);
        if (!linked && (c->count < min || c->count - c->ext < min || (double)c->whole < min_alone_share(d, c) * (double)c->count))
            continue;
        if (!name_shaped(d, cs, &sp->map, c) || counted_no_name(d, cs, &sp->map, &years, tags, c, linked)) continue;
        if (c->ntok == 1) {
            if (!usually_capitalised(d, c->key, c->len) || common_alone(d, c)) continue;
        } else if (!linked && weakest_pmi(cs, &sp->map, c, nwords) < d->p.min_pmi) {
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
    strmap_free(&years);
    drop_plurals(d, cs, n, &sp->map);
    strmap firsts, second;
    strmap_init(&firsts);
    count_second_words(cs, n, &second);
    find_first_names(d, cs, n, &second, &firsts);
    drop_first_names(cs, n, &sp->map, &firsts);
    aliases al = {xmalloc(sizeof *al.head * (size_t)(n + 1)), NULL, 0, 0};
    for (int64_t i = 0; i < n; i++) al.head[i] = -1;
    if ((double)d->head_sentences >= MIN_HEAD_SHARE * (double)d->sentences) merge_heads(d, cs, n, &sp->map, &al);
    merge_spelling_variants(cs, n, &al);
    merge_surnames(d, cs, n, &sp->map, &firsts, &al);
    merge_given_names(d, cs, n, &sp->map, &firsts, &second, &al);
    strmap_free(&firsts);
    strmap_free(&second);
    merge_organisations(cs, n, &sp->map, &al);
    /* acronyms: each joins its most frequent kept expansion (or what that was merged into) */
    counter *ac = &d->acronyms;
    acronym_pair *pairs = xmalloc(sizeof *pairs * (size_t)(ac->n + 1));
    int64_t np = 0;
    for (size_t s = 0; s < ac->map.cap; s++) {
        if (!ac->map.hash[s]) continue;
        const char *key = ac->map.key[s], *tab = strchr(key, '\t');
        int64_t e = span_index(&sp->map, tab + 1, strlen(tab + 1));
        if (e >= 0 && (cs[e].kept || cs[e].into >= 0))
            pairs[np++] = (acronym_pair){key, (size_t)(tab - key), e, ac->v[ac->map.val[s] * ac->slots + MID]};
    }
    qsort(pairs, (size_t)np, sizeof *pairs, by_acronym);
    for (int64_t k = 0; k < np; k++) {
        if (k > 0 && pairs[k].alen == pairs[k - 1].alen && !memcmp(pairs[k].key, pairs[k - 1].key, pairs[k].alen))
            continue; /* not the acronym's most frequent expansion */
        /* the entity the expansion belongs to now (variants, heads, earlier acronyms merged it) */
        int64_t a = span_index(&sp->map, pairs[k].key, pairs[k].alen), e = root(cs, pairs[k].expansion);
        if (a >= 0 && (cs[a].kept || cs[a].into >= 0)) { /* the acronym's own mentions now belong to the expansion */
            a = root(cs, a);
            if (a != e && !cs[a].headword) merge(cs, &al, a, e, cs[a].count, MERGE_ACRONYM); /* a head said what the acronym names */
        } else {
            alias_add(&al, e, pairs[k].key, pairs[k].alen, MERGE_ACRONYM);
        }
    }
    merge_initials(d, cs, n, &al);
    int64_t kept = 0;
    for (int64_t i = 0; i < n; i++) kept += cs[i].kept;
    discovered_name *names = xcalloc((size_t)kept + 1, sizeof *names);
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!cs[i].kept) continue;
        discovered_name *dn = &names[m++];
        const cand *shown = cs[i].named_as >= 0 ? &cs[cs[i].named_as] : &cs[i]; /* the alias and the key swap places */
        dn->name = xasprintf("%.*s", (int)shown->len, shown->key);
        dn->count = cs[i].count;
        for (int64_t k = al.head[i]; k >= 0; k = al.node[k].next) {
            const struct alias_node *a = &al.node[k];
            int swapped = shown != &cs[i] && a->len == shown->len && !memcmp(a->s, shown->key, a->len);
            dn->aliases = xrealloc(dn->aliases, sizeof *dn->aliases * (size_t)(dn->naliases + 1));
            dn->alias_rules = xrealloc(dn->alias_rules, sizeof *dn->alias_rules * (size_t)(dn->naliases + 1));
            dn->alias_rules[dn->naliases] = a->rule;
            dn->aliases[dn->naliases++] = swapped ? xasprintf("%.*s", (int)cs[i].len, cs[i].key) : xasprintf("%.*s", (int)a->len, a->s);
        }
    }
    qsort(names, (size_t)kept, sizeof *names, by_count_desc);
    free(al.head);
    free(al.node);
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
        free(names[i].alias_rules);
    }
    free(names);
}
