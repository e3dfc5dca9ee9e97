/* definition_genus: the head words of the definition a mention is the subject of (contract
 * in definition_genus.h). */
#include "model/definition_genus.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/error.h"

/* What an id does in a definition. */
enum {
    ROLE_WORD,    /* may be a head word */
    ROLE_PIECE,   /* "##..": continues the word before it */
    ROLE_HYPHEN,  /* "-": joins the words on either side ("well-known") */
    ROLE_THE,     /* skipped */
    ROLE_A,       /* "a", "an": skipped; opens an apposition */
    ROLE_CONJ,    /* "and", "or": ends a conjunct */
    ROLE_COMMA,   /* ends a conjunct; opens an apposition */
    ROLE_COLON,   /* ends a dictionary's headwords */
    ROLE_COPULA,  /* "is", "was": opens a definition; ends a phrase */
    ROLE_STOP,    /* ends the phrase: relative words, verbs, adverbs ("who", "known", "often") */
    ROLE_PREP,    /* ends the phrase as ROLE_STOP; opens a prepositional phrase of the differentia */
    ROLE_END      /* ends the phrase: numbers, punctuation, special tokens */
};

/* A dictionary's headwords come within this many ids of the sentence start, and the colon
 * within this many after the mention. */
#define HEAD_SPAN 24
/* The definition's first phrase is read for at most this many ids. */
#define PHRASE_SPAN 16
/* Prepositional phrases after the genus phrase read for the differentia. */
#define DIFFERENTIA_PHRASES 2

/* The prepositions whose object may name a sub-class: "in Africa", "of the state". */
static const char *const prepositions[] = {"of", "in", "on", "at", "by", "for", "from", "with", "to", "into",
                                           "between", "near", "within", NULL};

static const char *const stop_words[] = {
    "as", "than", "since", "during", "after", "before", "under", "over", "about", "like", "until", "upon",
    "through", "without", "who", "whom", "whose", "which", "that", "where", "when", "are", "were", "be", "been", "has", "had",
    "have", "known", "born", "noted", "famous", "best", "also", "especially", "one", "often", "usually", "now",
    "formerly", "once", "later", "died", "not", NULL};

static int role_of(const char *t) {
    if (!strncmp(t, "##", 2) && t[2]) return ROLE_PIECE;
    if (t[0] == '[' && t[strlen(t) - 1] == ']') return ROLE_END; /* [CLS], [SEP], [MASK], ... */
    if (!strcmp(t, "-")) return ROLE_HYPHEN;
    if (!strcmp(t, ",")) return ROLE_COMMA;
    if (!strcmp(t, ":")) return ROLE_COLON;
    if (!strcasecmp(t, "the")) return ROLE_THE;
    if (!strcasecmp(t, "a") || !strcasecmp(t, "an")) return ROLE_A;
    if (!strcasecmp(t, "and") || !strcasecmp(t, "or")) return ROLE_CONJ;
    if (!strcasecmp(t, "is") || !strcasecmp(t, "was")) return ROLE_COPULA;
    for (int i = 0; prepositions[i]; i++)
        if (!strcasecmp(t, prepositions[i])) return ROLE_PREP;
    for (int i = 0; stop_words[i]; i++)
        if (!strcasecmp(t, stop_words[i])) return ROLE_STOP;
    int letters = 0;
    for (const unsigned char *p = (const unsigned char *)t; *p; p++) {
        if (isdigit(*p)) return ROLE_END;
        letters += isalpha(*p) || *p >= 0x80;
    }
    return letters ? ROLE_WORD : ROLE_END;
}

static const struct {
    const char *word;
    genus_cue cue;
} cue_words[] = {{"such", CUE_SUCH},        {"as", CUE_AS},         {"including", CUE_INCLUDING},
                 {"especially", CUE_INCLUDING}, {"particularly", CUE_INCLUDING}, {"other", CUE_OTHER},
                 {"said", CUE_SPEECH},      {"says", CUE_SPEECH},   {"say", CUE_SPEECH},
                 {"told", CUE_SPEECH},      {"added", CUE_SPEECH},  {"according", CUE_SPEECH}};

/* Whether t ends a word as a participle does ("bordered", "##ing"): at least 5 letters for a
 * whole word, so that "red", "bed", "king" are not. */
static int participle_of(const char *t) {
    size_t n = strlen(t);
    int piece = !strncmp(t, "##", 2);
    if (n < (piece ? 4u : 5u)) return 0;
    return !strcasecmp(t + n - 2, "ed") || !strcasecmp(t + n - 3, "ing");
}

static genus_cue cue_of(const char *t) {
    for (size_t i = 0; i < sizeof cue_words / sizeof *cue_words; i++)
        if (!strcasecmp(t, cue_words[i].word)) return cue_words[i].cue;
    return CUE_NONE;
}

void genus_vocab_init(genus_vocab *v, const char *const *tokens, int32_t n) {
    v->n = n;
    v->role = xmalloc((size_t)n + 1);
    v->cue = xmalloc((size_t)n + 1);
    v->participle = xmalloc((size_t)n + 1);
    for (int32_t i = 0; i < n; i++) {
        v->participle[i] = (uint8_t)participle_of(tokens[i]);
        v->role[i] = (uint8_t)role_of(tokens[i]);
        v->cue[i] = (uint8_t)cue_of(tokens[i]);
    }
}

void genus_vocab_free(genus_vocab *v) {
    free(v->role);
    free(v->cue);
    free(v->participle);
    memset(v, 0, sizeof *v);
}

static int role(const genus_vocab *v, int32_t id) { return id >= 0 && id < v->n ? v->role[id] : ROLE_END; }

genus_cue genus_cue_of(const genus_vocab *v, int32_t id) { return id >= 0 && id < v->n ? (genus_cue)v->cue[id] : CUE_NONE; }

int genus_is_conjunction(const genus_vocab *v, int32_t id) { return role(v, id) == ROLE_CONJ; }

int genus_is_comma(const genus_vocab *v, int32_t id) { return role(v, id) == ROLE_COMMA; }

int genus_is_stop(const genus_vocab *v, int32_t id) {
    int r = role(v, id);
    return r == ROLE_STOP || r == ROLE_PREP;
}

int genus_ends_phrase(const genus_vocab *v, int32_t id) {
    int r = role(v, id);
    return r == ROLE_END || r == ROLE_COMMA || r == ROLE_COLON;
}

int genus_word_ending_at(const genus_vocab *v, const int32_t *ids, int end, int32_t out[GENUS_PIECES]) {
    for (int p = 0; p < GENUS_PIECES; p++) out[p] = -1;
    int start = end;
    while (start >= 0 && role(v, ids[start]) == ROLE_PIECE) start--;
    if (start < 0 || role(v, ids[start]) != ROLE_WORD || genus_cue_of(v, ids[start]) != CUE_NONE) return -1;
    for (int i = start; i <= end && i - start < GENUS_PIECES; i++) out[i - start] = ids[i];
    return start;
}

/* Where the definition of the mention at ids[mask] starts, or -1 when it is none's subject. */
static int definition_start(const genus_vocab *v, const int32_t *ids, int len, int mask) {
    if (mask + 2 < len) {
        int r1 = role(v, ids[mask + 1]), r2 = role(v, ids[mask + 2]);
        if (r1 == ROLE_COPULA && (r2 == ROLE_A || r2 == ROLE_THE)) return mask + 3;
        if (r1 == ROLE_COMMA && r2 == ROLE_A) return mask + 3;
    }
    if (mask > HEAD_SPAN) return -1;
    /* the object of a preposition in a headword is not what is defined ("Helsinki , capital of
     * Finland : ...") */
    if (mask > 0 && role(v, ids[mask - 1]) == ROLE_PREP) return -1;
    for (int i = 1; i < mask; i++)
        if (role(v, ids[i]) == ROLE_COLON) return -1; /* the mention is in a definition, not its subject */
    for (int i = mask + 1; i < len && i <= mask + HEAD_SPAN; i++) {
        int r = role(v, ids[i]);
        if (r == ROLE_COLON) return i + 1;
        if (r == ROLE_COPULA) return -1;
    }
    return -1;
}

static int phrase_heads(const genus_vocab *v, const int32_t *ids, int len, int start, int32_t out[GENUS_WORDS][GENUS_PIECES],
                        int *stop);

/* Whether the word after the mention at ids[mask] is one of the n heads h: the mention then
 * modifies a headword named after the genus ("Finnish capital : the capital and ...") and is
 * not what is defined. */
static int modifies_head(const genus_vocab *v, const int32_t *ids, int len, int mask, int32_t h[GENUS_WORDS][GENUS_PIECES], int n) {
    if (mask + 1 >= len || role(v, ids[mask + 1]) != ROLE_WORD) return 0;
    int32_t w[GENUS_PIECES];
    for (int p = 0; p < GENUS_PIECES; p++) w[p] = -1;
    for (int i = mask + 1, p = 0; i < len && p < GENUS_PIECES && (i == mask + 1 || role(v, ids[i]) == ROLE_PIECE); i++) w[p++] = ids[i];
    for (int k = 0; k < n; k++)
        if (!memcmp(w, h[k], sizeof w)) return 1;
    return 0;
}

/* The genus heads of the definition whose subject is the mention at ids[mask] into h (-1
 * padded), with *stop where the genus phrase ends; returns how many, 0 when the mention is no
 * definition's subject. */
static int read_genus(const genus_vocab *v, const int32_t *ids, int len, int mask, int32_t h[GENUS_WORDS][GENUS_PIECES], int *stop) {
    for (int w = 0; w < GENUS_WORDS; w++)
        for (int p = 0; p < GENUS_PIECES; p++) h[w][p] = -1;
    int start = definition_start(v, ids, len, mask);
    if (start < 0) return 0;
    int n = phrase_heads(v, ids, len, start, h, stop);
    if (!modifies_head(v, ids, len, mask, h, n)) return n;
    for (int w = 0; w < GENUS_WORDS; w++)
        for (int p = 0; p < GENUS_PIECES; p++) h[w][p] = -1;
    return 0;
}

/* Appends the k heads of h to out[*n..] while there is room. */
static void append_heads(int32_t out[DIFFERENTIA_WORDS][GENUS_PIECES], int *n, int32_t h[GENUS_WORDS][GENUS_PIECES], int k) {
    for (int i = 0; i < k && *n < DIFFERENTIA_WORDS; i++) memcpy(out[(*n)++], h[i], sizeof(int32_t) * GENUS_PIECES);
}

int definition_genus(const genus_vocab *v, const int32_t *ids, int len, int mask, int32_t genus[GENUS_WORDS][GENUS_PIECES],
                     int32_t differentia[DIFFERENTIA_WORDS][GENUS_PIECES], int *ndifferentia) {
    for (int w = 0; w < DIFFERENTIA_WORDS; w++)
        for (int p = 0; p < GENUS_PIECES; p++) differentia[w][p] = -1;
    *ndifferentia = 0;
    int stop, ngenus = read_genus(v, ids, len, mask, genus, &stop);
    if (!ngenus) return 0;
    int32_t h[GENUS_WORDS][GENUS_PIECES]; /* one prepositional phrase's heads */
    for (int k = 0; k < DIFFERENTIA_PHRASES && stop + 1 < len && role(v, ids[stop]) == ROLE_PREP; k++)
        append_heads(differentia, ndifferentia, h, phrase_heads(v, ids, len, stop + 1, h, &stop));
    return ngenus;
}

int genus_phrase_heads(const genus_vocab *v, const int32_t *ids, int len, int start, int32_t out[GENUS_WORDS][GENUS_PIECES]) {
    int stop;
    return phrase_heads(v, ids, len, start, out, &stop);
}

/* When the word starting at ids[i] is a participle that a preposition or an article follows
 * ("bordered by", "flowing into", "occupying the"): the position after it; else 0. */
static int participle_follows(const genus_vocab *v, const int32_t *ids, int len, int i) {
    int end = i;
    while (end + 1 < len && role(v, ids[end + 1]) == ROLE_PIECE) end++;
    if (end + 1 >= len || ids[end] < 0 || ids[end] >= v->n || !v->participle[ids[end]]) return 0;
    int next = role(v, ids[end + 1]);
    return next == ROLE_PREP || next == ROLE_A || next == ROLE_THE ? end + 1 : 0;
}

/* genus_phrase_heads, with *stop the position where the reading stopped (a word that ends
 * the phrase, or the first position not read). */
static int phrase_heads(const genus_vocab *v, const int32_t *ids, int len, int start, int32_t out[GENUS_WORDS][GENUS_PIECES],
                        int *stop) {
    for (int w = 0; w < GENUS_WORDS; w++)
        for (int p = 0; p < GENUS_PIECES; p++) out[w][p] = -1;
    int32_t word[GENUS_PIECES];
    int pieces = 0, glue = 0, n = 0, i;
    for (i = start; i < len && i < start + PHRASE_SPAN && n < GENUS_WORDS; i++) {
        int r = role(v, ids[i]);
        if (r == ROLE_PIECE && pieces > 0) { /* the word goes on */
            if (pieces < GENUS_PIECES) word[pieces++] = ids[i];
            continue;
        }
        if (r == ROLE_HYPHEN && pieces > 0) {
            glue = 1;
            if (pieces < GENUS_PIECES) word[pieces++] = ids[i];
            continue;
        }
        int after = r == ROLE_WORD && !glue && pieces > 0 ? participle_follows(v, ids, len, i) : 0;
        if (after) { /* "Asia bordered by": the phrase ends before the participle, read on after it */
            memcpy(out[n++], word, sizeof(int32_t) * (size_t)pieces);
            *stop = after;
            return n;
        }
        if (r == ROLE_WORD || r == ROLE_PIECE || (glue && r != ROLE_END && r != ROLE_COMMA && r != ROLE_COLON)) {
            /* after a hyphen any word goes on ("well-known", "mother-in-law") */
            if (!glue) pieces = 0; /* a new word: the conjunct's head so far */
            if (pieces < GENUS_PIECES) word[pieces++] = ids[i];
            glue = 0;
            continue;
        }
        glue = 0;
        if (r == ROLE_THE || r == ROLE_A) continue;
        if (pieces > 0) { /* the conjunct ends: its last word is a head */
            memcpy(out[n++], word, sizeof(int32_t) * (size_t)pieces);
            pieces = 0;
        }
        if (r != ROLE_CONJ && r != ROLE_COMMA) {
            *stop = i;
            return n;
        }
    }
    *stop = i;
    if (pieces > 0 && n < GENUS_WORDS) memcpy(out[n++], word, sizeof(int32_t) * (size_t)pieces);
    return n;
}
