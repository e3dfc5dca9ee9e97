# layers.sh: the library's lower layers do not reach up. The file formats and parsers
# (common/base, format, artifacts, dataset, text) use no catalog and no SQLite, so fuzz targets
# and parsers link without the database: no object of theirs references a catalog_* or
# sqlite3_* symbol. Reads the objects `make` built beside the unit tests.
source "$(dirname "$0")/lib.sh"
OBJ=$PROBEXPAN_TESTBIN/../common
[ -d "$OBJ/format" ] || { skip layers "no objects in $OBJ"; exit 0; }
for layer in base format artifacts dataset text; do
    bad=""
    for o in "$OBJ/$layer"/*.o; do
        [ -e "$PROBEXPAN_ROOT/common/$layer/$(basename "$o" .o).c" ] || continue # a stale object
        nm -u "$o" | grep -Eq ' (catalog_|sqlite3_)' && bad="$bad $(basename "$o")"
    done
    [ -z "$bad" ] && pass "no_catalog_in_$layer" || fail "no_catalog_in_$layer" "uses the catalog:$bad"
done
