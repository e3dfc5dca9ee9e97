/* train-mlm: not implemented yet (see the README's status table); exits 1. */
#include "cli.h"
#include "error.h"

int main(int argc, char **argv) {
    const cli_option opts[] = {{NULL, 0, NULL, NULL, NULL, 0, 0}};
    const cli_spec spec = {"train-mlm", "not implemented yet", "[options]", "train-mlm --help", "README status table", opts};
    cli_parse(&spec, argc, argv);
    die("not implemented yet");
}
