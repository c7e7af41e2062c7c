/*
 * list_md — `storbench list --format md`: every test's options as Markdown tables
 * (key, title, kind of value, default, --quick value, choices, help) and the suites,
 * generated from the workloads' option tables. docs/workloads.md carries this output
 * between its "BEGIN list --format md" and "END list --format md" lines
 * (scripts/gen-workloads-md rewrites it; tests/cli/test_workloads_md.sh checks it).
 */
#ifndef SB_CLI_LIST_MD_H
#define SB_CLI_LIST_MD_H

/* Prints the tests and suites named in argv[first..argc) (every one when none is named).
 * The exit code (2 after the line naming an unknown name). */
int sb_list_md(int argc, char **argv, int first);

#endif
