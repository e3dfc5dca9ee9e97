/* catalog: read the SQLite catalog that every stage writes. Subcommands:
 *   ls                 artifacts (newest record per path)
 *   show ARTIFACT      one artifact, the run that made it (argv, params, metrics), inputs
 *   lineage ARTIFACT   the tree of inputs down to the raw files
 *   runs               every run with status, time, peak memory and metrics
 * ARTIFACT is a path or an artifact id. The reports are common/catalog/catalog_read.h. */
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "base/error.h"
#include "catalog/catalog_read.h"

int main(int argc, char **argv) {
    const cli_option opts[] = {{NULL, 0, NULL, NULL, NULL, 0, 0}};
    const cli_spec spec = {"catalog", "show the artifacts, runs and lineage recorded in a catalog",
                           "[--catalog PATH] ls | runs | show ARTIFACT | lineage ARTIFACT",
                           "probexpan catalog --catalog run/catalog.sqlite lineage run/report.mp",
                           "inspect", opts, 2};
    int first = cli_parse(&spec, argc, argv);
    int nargs = argc - first;
    if (nargs < 1) die_usage("expected a subcommand: ls, runs, show ARTIFACT, lineage ARTIFACT");
    const char *cmd = argv[first];
    const char *env = getenv("PROBEXPAN_CATALOG");
    catalog_reader *c = catalog_read_open(cli_catalog ? cli_catalog : env && *env ? env : "catalog.sqlite");
    int needs_arg = !strcmp(cmd, "show") || !strcmp(cmd, "lineage");
    if (nargs != 1 + needs_arg) die_usage("'%s' takes %s", cmd, needs_arg ? "one ARTIFACT" : "no argument");
    if (!strcmp(cmd, "ls")) catalog_read_ls(c);
    else if (!strcmp(cmd, "runs")) catalog_read_runs(c);
    else if (!strcmp(cmd, "show")) catalog_read_show(c, argv[first + 1]);
    else if (!strcmp(cmd, "lineage")) catalog_read_lineage(c, argv[first + 1]);
    else die_usage("unknown subcommand '%s'", cmd);
    catalog_read_close(c);
    stdout_flush();
    return 0;
}
