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
    ROLE_STOP,    /* ends the phrase: prepositions, relative words, verbs ("of", "who", "known") */
    ROLE_END      /* ends the phrase: numbers, punctuation, special tokens */
};

/* A dictionary's headwords come within this many ids of the sentence start, and the colon
 * within this many after the mention. */
#define HEAD_SPAN 24
/* The definition's first phrase is read for at most this many ids. */
#define PHRASE_SPAN 16

static const char *const stop_words[] = {
    "of", "in", "on", "at", "by", "for", "from", "with", "to", "into", "as", "than", "since", "during", "after",
    "before", "between", "under", "over", "about", "like", "until", "upon", "through", "within", "without",
    "near", "who", "whom", "whose", "which", "that", "where", "when", "are", "were", "be", "been", "has", "had",
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

static genus_cue cue_of(const char *t) {
    for (size_t i = 0; i < sizeof cue_words / sizeof *cue_words; i++)
        if (!strcasecmp(t, cue_words[i].word)) return cue_words[i].cue;
    return CUE_NONE;
}

void genus_vocab_init(genus_vocab *v, const char *const *tokens, int32_t n) {
    v->n = n;
    v->role = xmalloc((size_t)n + 1);
    v->cue = xmalloc((size_t)n + 1);
    for (int32_t i = 0; i < n; i++) {
        v->role[i] = (uint8_t)role_of(tokens[i]);
        v->cue[i] = (uint8_t)cue_of(tokens[i]);
    }
}

void genus_vocab_free(genus_vocab *v) {
    free(v->role);
    free(v->cue);
    memset(v, 0, sizeof *v);
}

static int role(const genus_vocab *v, int32_t id) { return id >= 0 && id < v->n ? v->role[id] : ROLE_END; }

genus_cue genus_cue_of(const genus_vocab *v, int32_t id) { return id >= 0 && id < v->n ? (genus_cue)v->cue[id] : CUE_NONE; }

int genus_is_conjunction(const genus_vocab *v, int32_t id) { return role(v, id) == ROLE_CONJ; }

int genus_is_comma(const genus_vocab *v, int32_t id) { return role(v, id) == ROLE_COMMA; }

int genus_is_stop(const genus_vocab *v, int32_t id) { return role(v, id) == ROLE_STOP; }

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
    for (int i = 1; i < mask; i++)
        if (role(v, ids[i]) == ROLE_COLON) return -1; /* the mention is in a definition, not its subject */
    for (int i = mask + 1; i < len && i <= mask + HEAD_SPAN; i++) {
        int r = role(v, ids[i]);
        if (r == ROLE_COLON) return i + 1;
        if (r == ROLE_COPULA) return -1;
    }
    return -1;
}

int definition_genus(const genus_vocab *v, const int32_t *ids, int len, int mask, int32_t out[GENUS_WORDS][GENUS_PIECES]) {
    int start = definition_start(v, ids, len, mask);
    if (start < 0) {
        for (int w = 0; w < GENUS_WORDS; w++)
            for (int p = 0; p < GENUS_PIECES; p++) out[w][p] = -1;
        return 0;
    }
    return genus_phrase_heads(v, ids, len, start, out);
}

int genus_phrase_heads(const genus_vocab *v, const int32_t *ids, int len, int start, int32_t out[GENUS_WORDS][GENUS_PIECES]) {
    for (int w = 0; w < GENUS_WORDS; w++)
        for (int p = 0; p < GENUS_PIECES; p++) out[w][p] = -1;
    int32_t word[GENUS_PIECES];
    int pieces = 0, glue = 0, n = 0;
    for (int i = start; i < len && i < start + PHRASE_SPAN && n < GENUS_WORDS; i++) {
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
        if (r != ROLE_CONJ && r != ROLE_COMMA) return n;
    }
    if (pieces > 0 && n < GENUS_WORDS) memcpy(out[n++], word, sizeof(int32_t) * (size_t)pieces);
    return n;
}
