/* discover: mine candidate entity names from tokenised sentences, so that a
 * corpus needs no hand-made entity list (annotate --discover, schemas/names.md).
 *
 * Sources of candidates, all counted in one streaming pass:
 *  - name spans: maximal runs of capitalised words ("Ludwig", "DNA", "U.S.")
 *    joined by at most two connectors ("of", "van", "de la", "the", "and" ...),
 *    e.g. "Church of England", "Ludwig van Beethoven"; every sub-span of at
 *    most max_len tokens that starts and ends with a capitalised word is
 *    counted. Capitalised function words ("The", "In", "However" ...: a fixed
 *    stoplist) never start a name. A span at the start of a sentence is counted
 *    apart, and counts as a name there only when its first word is usually
 *    capitalised: seen capitalised away from sentence starts, and its
 *    lower-case form at most 2x as frequent as that. The rest of such a run
 *    counts as a whole run only after a common first word that the text has
 *    not written with it away from a sentence start so far ("Yesterday
 *    Reagan", not "New Zealand": no whole "Zealand").
 *  - acronyms: "Expansion ( ACR )" and "ACR ( Expansion )", where the capitals
 *    of ACR are the initials of the expansion's capitalised words; the acronym
 *    becomes an alias of the expansion's entity (the entity it was merged into, below),
 *    unless it is a name of another entity already (a synonym in a head, below);
 *  - definition heads: a sentence that starts with names separated by ","
 *    and ended by ":", as dictionaries and glossaries write a headword and
 *    its synonyms ("Garbo , Greta Garbo , Greta Louisa Gustafsson : United
 *    States film actress"; at most 8 items in 64 tokens; items that are no
 *    whole run of name words, such as "capital of Italy", are skipped), read
 *    only when at least 7% of the sentences start with a head (a glossary,
 *    not running text where a colon follows a list or a label now and then).
 *  - names joined by "and" or "&" ("Securities and Exchange Commission"):
 *    the spans across two runs of name words, kept only when at least half as
 *    frequent as the more frequent of the two ("IBM and Microsoft" is none).
 * Never a name word: month and day names ("Dec", not "DEC") and ranges of
 * them in one token ("May/Jul", "April-June"), markup ("IBM}",
 * "Inc>"); a title before a name word ends the words before it ("Finance
 * Minister Cleopa Msuya" counts "Cleopa Msuya"); a number may end a name
 * ("Windows 95", "IBM 360").
 * A candidate is kept when it is frequent (estimated count >= min_count), of
 * good quality and complete:
 *  - one word: at least two letters (one letter, "C", "R", "C++", when listed
 *    next to a longer name at least min_count times: "C , Pascal and Fortran"),
 *    not a stoplisted word nor a company designator ("Inc."), usually
 *    capitalised, and its lower-case form no more frequent than its whole
 *    runs unless it is in capitals ("Fund", "Language" in titles are not;
 *    "BASIC" is);
 *  - no word a name hyphen-joined to a lower-case word the text writes alone
 *    ("C-like", "U.S.-backed"), no title as its last word, no number after a
 *    common word ("Section 5"), no plural of a kept name ("GUIs");
 *  - several words: not an ordinary phrase that the text also writes in
 *    lower case at least a quarter as often ("Image Processing", "Mail User
 *    Agent"; counted by the second pass, discover_add_lower_case), nor an
 *    abbreviation in periods before a common noun that the text writes in
 *    lower case after it at least a quarter as often ("U.S. Position",
 *    "U.K. Economy": "U.S. position"; not "U.S. Treasury"), nor of two words
 *    an abbreviation in periods that is a whole run min_count times and a
 *    common word ("U.K. Currency", "U.S. Plans"; not "J.P. Industries");
 *  - no reference to a cited work: a name ending in a year (1900-2099),
 *    never linked, whose words before the year end 2 or more names with years
 *    ("A-W 1989", "Springer 1992"; not "RFC 2045" when linked);
 *  - no tag: a capital letter, a hyphen and a capitalised word, never linked,
 *    the letter starting 5 or more such names ("D-Tex", "R-Iowa");
 *  - no grade: one word glued by a hyphen to a lower-case word min_count
 *    times and at least as often as it is a whole run ("BBB" of "BBB-plus");
 *  - no two names joined as an adjective: one word of two parts joined by
 *    "-" or "/", each a whole run min_count times, the second no acronym,
 *    under 5% of its whole runs ending a phrase ("U.S.-Soviet", "Iran/Iraq";
 *    not "CD-ROM");
 *  - no first name alone: a word the text puts before at least 3 surnames
 *    (proper words that follow at most 2 different words: "Dick Bruin",
 *    "Dick Depew") and before more surnames than other words, a whole run
 *    in under half of its occurrences, starting spans of two words more than
 *    twice as often as it ends spans ("University of Edinburgh" is a place),
 *    none of those spans holding half of them ("Morgan Stanley": a company's
 *    short form) is no entity ("Thomas", "Dick", "Charles");
 *  - a linked name (the text's link markup pointed at it at least min_count
 *    times, more often than at its lower-case form: discover_add_link) seen
 *    min_count times is kept whatever the counts of fragments, adjectives,
 *    concordance and first names say; it must still be shaped like a name and,
 *    of one word, no common word ("{Home}" as a link's label);
 *  - no fragment cut by "and" or "'s": fewer than half (or fewer than
 *    min_count) of its whole runs in one frame, a name word and "and", "&"
 *    or "'s" before it or "and"/"&" and a name word after it ("Exchange
 *    Commission" after "Securities and", "Flying Circus" after "Python 's");
 *    a frame's name word is no company designator ("Morgan Stanley and Co"),
 *    and a name of several words starting with a proper word or holding
 *    initials is exempt (persons named together: "M.P. Atkinson & J.W.
 *    Schmidt") unless it ends in a company designator ("Haas Co" of "Rohm and
 *    Haas Co");
 *  - no unit: fewer than half (or fewer than min_count) of its whole runs
 *    after a quantity, a number or a number and a lower-case word, not a
 *    year nor an ordinal ("12 H.K. Dlrs", "1.28 billion H.K. Dlrs");
 *  - no adjective: of 20 or more whole runs, at least 5% end a phrase
 *    (punctuation, "'s", a number or a verb such as "said" follows: "Japanese"
 *    is followed by a noun);
 *  - no adjective made of a name: one word ending in -ean, -ian, -ic, -ese or
 *    -ish, a whole run min_count times, at most 10% of those runs ending a
 *    phrase ("Euclidean space", "Gaussian distribution"; not "Christian said");
 *    the "," or ":" after a definition head's item is no phrase end
 *    ("Gaussian : of or relating to Karl Gauss"), and such an adjective is no
 *    head item either;
 *  - several words: the pointwise mutual information of its weakest split into
 *    two shorter names, log(c(ab) N / (c(a) c(b))), is >= min_pmi (N = name
 *    words counted), i.e. its parts occur together more than chance would
 *    make them (SegPhrase/AutoPhrase's concordance);
 *  - complete: at least min_count of its occurrences lie outside its most
 *    frequent kept one-word extension ("Ludwig van" is never kept when it
 *    is always followed by "Beethoven") — the right/left boundary test of
 *    phrase mining, by the share of the dominant neighbour instead of the
 *    entropy of all of them (which would need every neighbour's count);
 *  - a name on its own: at least min_alone (one of several words starting
 *    with a common word and nothing proper after it but designators: half)
 *    of its occurrences are a whole run of name words (from the run's second
 *    name word when the run starts the sentence with a common word, by the
 *    counts so far; a name whole only there, whose first word is no proper
 *    word, is none: "Memories Inc" of "Monolithic Memories Inc said"), so
 *    words seen mostly as parts of many longer names —
 *    first names ("Edith"), titles ("Mr.", "General"), heads ("River",
 *    "University") — are no entities, and take no mentions from the longer
 *    names that are too rare to be kept.
 * Variants of a name then become one entity, the others its aliases:
 *  - spellings that differ only in case, spaces, hyphens, periods or
 *    apostrophes ("UNIX" ~ "Unix", "U. S." ~ "U.S."): the most frequent wins;
 *    two that each head a definition of their own (below) stay apart
 *    ("MAC" and "Mac" in a dictionary);
 *  - surnames, for persons only: the long form's words before the last are
 *    given names (proper words, no names of their own, that the text puts
 *    before two or more proper words and rarely before common words: "Alan
 *    Kay", "Alan Turing"; not "Turbo Pascal", "Franz Lisp", "British
 *    Columbia") or initials; a one-word name and its most
 *    frequent such long form ("Garbo" -> "Greta Garbo"), when the long form is
 *    at least as frequent as the word alone and covers at least half of the
 *    word's occurrences inside longer runs ("Washington" alone outnumbers
 *    "George Washington": two entities);
 *  - a one-word name and its only person's long form at least a quarter as
 *    frequent as the word alone ("Davy" ~ "Humphrey Davy");
 *  but in neither case when the word alone was seen in a sentence with
 *  another long form ending with it and never with this one ("Eyre , Lake
 *  Eyre": not "Jane Eyre"), nor when it shares more sentences with another
 *  kept long form than with this one ("Fonda" beside "Henry Fonda" more
 *  often than beside "Jane Fonda"), nor, for the usual long form, when the
 *  text writes that with a company designator min_count times and another
 *  person's long form ends with the word too ("Douglas" of "McDonnell
 *  Douglas Corp" and "Roger Douglas"); a word in capitals is no given name
 *  ("ETH Zurich");
 *  - before those, the names of one definition head: when their whole-run
 *    occurrences add up to min_count, the first is kept whatever the filters
 *    said of it and the others become its aliases (a headword seen twice and
 *    a synonym seen once make one entity of 3 mentions, as a hand-made list
 *    counts an entity's mentions over its names); one fewer suffices when
 *    every item is a long form holding a kept name ("Canandaigua Lake , Lake
 *    Canandaigua", once each), and a kept name inside a kept head's items
 *    seen under min_count times outside them is then a fragment, no entity
 *    ("Canandaigua", "Tecumseh" of "William Tecumseh Sherman"), unless it
 *    heads a definition itself or is linked. A name that items two
 *    different heads ("Charles" heads a king, a river and a physicist) or a
 *    one-word item whose lower-case form is more than twice as frequent
 *    ("Note :") is left to the rules above. An item after the first that the
 *    head's entry (its sentence and those after it, until the next head)
 *    spells out as "ITEM ( Words )", the words' capitals spelling the item
 *    whole, as something no item of the head names, and never as one of
 *    them, is a related word, no synonym ("IMNSHO ( In My Not-So-Humble
 *    Opinion )" under "IMHO , IMAO , IMNSHO , IMO : In My Humble Opinion"):
 *    it is no item.
 *    The entity is named by its headword, or by an item that is a short
 *    form of it (one word mostly in capitals whose letters the headword
 *    holds in order, the first at a word's start: an acronym, "MS-DOS" of
 *    "Microsoft Disk Operating System") when the text writes that item as a
 *    whole run more often ("PPGA" ~ "Plastic Pin Grid Array": the name the
 *    text uses; the headword becomes the alias);
 *  - a given name alone that mostly stands for its one long form: a kept
 *    word the text uses as a given name, a whole run in under half of its
 *    occurrences and ending a phrase at least once, half of whose
 *    occurrences or more stand before one surname that is no name of its
 *    own, the two a kept long form ("Denis" ~ "Denis Howe", "Shearson" ~
 *    "Shearson Lehman"; not "Clayton" of "Clayton Yeutter", who is
 *    "Yeutter", nor "Abu" of "Abu Dhabi");
 *  - after those, a name and its company forms ("Sun" ~ "Sun Microsystems",
 *    "Textron" ~ "Textron Inc"), then the acronyms, then an acronym in
 *    capitals and the only kept name with its initials when the two were
 *    seen in one sentence ("DEC" ~ "Digital Equipment Corporation").
 * Each alias carries the rule that made it (merge_rule; names.tsv says it).
 * Memory: a table of the distinct words, one of the distinct candidate spans,
 * one of the (frame, whole run) pairs,
 * one of the (word alone, long form) pairs met in a sentence, one of the
 * (acronym, span with its initials) pairs met in a sentence, one of the
 * distinct definition heads and one of the (head item, words spelling it)
 * pairs; when one of the latter six exceeds max_table entries its keys seen once are dropped (lossy counting: counts are then lower bounds; a head seen once then names nothing), so memory stays
 * bounded whatever the text size. */
#ifndef PROBEXPAN_DISCOVER_H
#define PROBEXPAN_DISCOVER_H

#include <stdint.h>

typedef struct {
    int min_count;      /* candidates need this many occurrences (default 3) */
    int max_len;        /* longest candidate in tokens (default 6) */
    double min_pmi;     /* concordance threshold of multi-word names (default 1) */
    double min_alone;   /* share of a name's occurrences that are a whole run of name words (default 0.1) */
    int64_t max_table;  /* candidate spans held before pruning (default 4,000,000) */
    int no_heads;       /* do not read definition heads (default 0: read them) */
} discover_params;

void discover_params_default(discover_params *p);

typedef struct discover discover;

discover *discover_new(const discover_params *p);
void discover_free(discover *d);
/* Counts one sentence (tokens as sentence_split.h makes them). */
void discover_add_sentence(discover *d, char *const *tokens, int n);
/* A name the text's link markup pointed at `links` times ({IBM}, [[IBM]];
 * text/linked_names.h), its tokens joined by single spaces: strong evidence
 * that it is a name. Call before discover_finish. */
void discover_add_link(discover *d, const char *name, int64_t links);
/* The second pass: the same sentences again, after every discover_add_sentence
 * and before discover_finish, to count where the text writes a candidate of
 * several words in lower case ("image processing"), and where it writes
 * them lower case after an abbreviation in periods ("U.S. position").
 * Optional: without it no
 * candidate is dropped for its lower-case form. */
void discover_add_lower_case(discover *d, char *const *tokens, int n);

/* The rule that made a name an alias of an entity (names.tsv says it). */
typedef enum {
    MERGE_SPELLING,     /* spelled alike but for case, spaces, '-', '.', '\'', '/' ("UNIX" ~ "Unix", "HP/UX" ~ "HP-UX") */
    MERGE_HEAD,         /* a synonym of one definition head ("Garbo , Greta Garbo :") */
    MERGE_SURNAME,      /* a person's surname and full name ("Turing" ~ "Alan Turing") */
    MERGE_ORGANISATION, /* a name and its company form ("Sun" ~ "Sun Microsystems", "Textron" ~ "Textron Inc") */
    MERGE_ACRONYM,      /* defined in parentheses ("International Business Machines ( IBM )") */
    MERGE_INITIALS,     /* an acronym that is the initials of the only kept name so spelled ("DEC" ~ "Digital Equipment Corporation") */
    MERGE_GIVEN,        /* a given name alone that mostly stands for its one long form ("Denis" ~ "Denis Howe") */
    MERGE_RULES         /* the number of rules */
} merge_rule;
const char *merge_rule_name(merge_rule r);

typedef struct {
    char *name;         /* tokens joined by single spaces */
    char **aliases;     /* its merged variants and acronyms */
    merge_rule *alias_rules; /* the rule that made each alias one */
    int naliases;
    int64_t count;      /* estimated occurrences */
} discovered_name;

/* The kept candidates, by count (descending) then name; returns how many
 * (malloc'd array in *out). Call once. */
int64_t discover_finish(discover *d, discovered_name **out);
void discovered_names_free(discovered_name *names, int64_t n);

/* Token classes used above (exposed for tests and the fuzz target). */
typedef enum { TOKEN_OTHER, TOKEN_NAME, TOKEN_CONNECTOR, TOKEN_NUMERAL } token_class;
token_class discover_token_class(const char *token);

#endif
