#include "cli.h"
int cli_fixture(int argc, char **argv) { (void)argc; (void)argv; return 0; }
