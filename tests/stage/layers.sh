# layers.sh: the library's layers point down. common/ is one folder per layer, in the order
# written on the "Layer order:" line of docs/design.md §1 (read from there, so the document and
# the check cannot drift apart). Checked, from the sources and from the objects `make` built
# beside the unit tests:
#   - every #include "layer/file.h" in common/ names its own layer or a lower one;
#   - no loop of includes between common/'s files;
#   - every call between modules (an undefined symbol of one object defined by another) goes to
#     its own layer or a lower one, and the modules' calls form no loop (dataset.c and
#     entitynames.c calling each other was one);
#   - the file formats and parsers (base, format, text, dataset, artifacts) use no catalog and no
#     SQLite (no catalog_* or sqlite3_* symbol), so fuzz targets and parsers link without the
#     database.
source "$(dirname "$0")/lib.sh"
SRC=$PROBEXPAN_ROOT/common
OBJ=${LAYERS_OBJ:-$PROBEXPAN_TESTBIN/../common}

order=$(sed -n 's/^Layer order: *//p' "$PROBEXPAN_ROOT/docs/design.md" | tr -d '`.' | sed 's/ *< */ /g')
[ -n "$order" ] || { fail layer_order "no \"Layer order:\" line in docs/design.md"; exit 0; }

# every folder of common/ is a layer of the order
bad=""
for d in "$SRC"/*/; do d=$(basename "$d"); [[ " $order " == *" $d "* ]] || bad="$bad $d"; done
[ -z "$bad" ] && pass layer_order || fail layer_order "folders not in docs/design.md's layer order:$bad"

# direction: one line "from to" per dependency that points up; there must be none
upward() { # reads "from to" pairs (layer/name), prints those whose target's layer comes later
    awk -v order="$order" 'BEGIN { n = split(order, l, " "); for (i = 1; i <= n; i++) rank[l[i]] = i }
        { split($1, f, "/"); split($2, t, "/"); if (rank[t[1]] > rank[f[1]]) print $1, $2 }'
}
check_direction() { # name, kind ("include" or "call"), pairs file
    local found
    found=$(upward <"$3" | sort -u | tr '\n' ';')
    [ -z "$found" ] && pass "$1" || fail "$1" "upward $2s:$found"
}
no_loop() { # name, pairs file ("from to": from depends on to)
    local err
    err=$(awk '{print $2, $1}' "$2" | tsort 2>&1 >/dev/null | sed 's/^tsort: //; s/^-: //' | tr '\n' ' ')
    [ -z "$err" ] && pass "$1" || fail "$1" "$err"
}

# includes: "common/x/a.c" including "y/b.h" -> "x/a.c y/b.h"
(cd "$SRC" && grep -o '^#include "[^"]*"' */*.[ch]) | sed 's/:#include "/ /; s/"$//' >"$WORK/includes"
check_direction include_direction include "$WORK/includes"
no_loop include_loops "$WORK/includes"

# calls between modules, from the objects
if [ ! -d "$OBJ/format" ]; then
    skip call_direction "no objects in $OBJ"
    skip call_loops "no objects in $OBJ"
    skip no_catalog "no objects in $OBJ"
    exit 0
fi
for o in "$OBJ"/*/*.o; do
    m=${o#"$OBJ"/}; m=${m%.o}
    [ -e "$SRC/$m.c" ] || continue # a stale object
    nm --defined-only -g "$o" | awk -v m="$m" 'NF == 3 {print $3, m}' >>"$WORK/defs"
    nm -u "$o" | awk -v m="$m" '{print $2, m}' >>"$WORK/uses"
done
sort -o "$WORK/defs" "$WORK/defs"
sort -o "$WORK/uses" "$WORK/uses"
join "$WORK/uses" "$WORK/defs" | awk '$2 != $3 {print $2, $3}' | sort -u >"$WORK/calls"
check_direction call_direction call "$WORK/calls"
no_loop call_loops "$WORK/calls"

for layer in base format artifacts dataset text; do
    bad=""
    for o in "$OBJ/$layer"/*.o; do
        [ -e "$SRC/$layer/$(basename "$o" .o).c" ] || continue
        nm -u "$o" | grep -Eq ' (catalog_|sqlite3_)' && bad="$bad $(basename "$o")"
    done
    [ -z "$bad" ] && pass "no_catalog_in_$layer" || fail "no_catalog_in_$layer" "uses the catalog:$bad"
done
