/*
 * sysinfo — `storbench sysinfo [--target DIR] [--format text|json]`: prints
 * the system description that `run` records with each identifier, so that
 * one can see (and script against) what a result file will say about this
 * machine before running anything. Text is the seed pages' comma-separated
 * lines; json is one object with the three ordered key/value groups.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/log.h"
#include "results/result.h"
#include "sysinfo/sysinfo.h"

static const char *const CMD = "sysinfo";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: storbench sysinfo [--target DIR] [--format text|json]\n"
            "\n"
            "Describes this machine as a result file records it: Processor, Motherboard,\n"
            "Chipset, Memory, Disk; OS, Kernel, Compiler, File-System. With --target, also\n"
            "the storage behind DIR: block device, model, I/O scheduler, rotational flag,\n"
            "mount point, source and options, CPU frequency governor.\n"
            "\n"
            "  -t, --target DIR     describe the filesystem and device holding DIR\n"
            "  -f, --format FORMAT  text (default, seed-page lines) or json\n"
            "  -h, --help           this text\n"
            "\n"
            "Anything that cannot be read on this machine is shown as Unknown.\n"
            "See docs/sysinfo.md for where each field comes from.\n");
}

/* "Key: value, Key: value" on one line, as in the seed pages. */
static void print_line(const sb_kvlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        printf("%s%s: %s", i ? ", " : "", l->items[i].key, l->items[i].value);
    if (l->n)
        putchar('\n');
}

static json_t *kv_object(const sb_kvlist *l)
{
    json_t *o = json_object();
    for (size_t i = 0; i < l->n; i++)
        json_object_set_new(o, l->items[i].key, json_string(l->items[i].value));
    return o;
}

static void free_system(sb_system *sys)
{
    sb_kvlist_free(&sys->hardware);
    sb_kvlist_free(&sys->software);
    sb_kvlist_free(&sys->storage);
}

int sb_cmd_sysinfo(int argc, char **argv)
{
    static const struct option opts[] = {
        {"target", required_argument, NULL, 't'},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *target = NULL;
    bool json = false;
    int c;

    optind = 0; /* a fresh scan: argv[0] is the command name */
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+:t:f:h", opts, NULL)) != -1) {
        switch (c) {
        case 't':
            target = optarg;
            break;
        case 'f':
            if (!strcmp(optarg, "json"))
                json = true;
            else if (!strcmp(optarg, "text"))
                json = false;
            else
                return sb_usage_error(CMD, "unknown format '%s' (text or json)", optarg);
            break;
        case 'h':
            usage(stdout);
            return SB_EXIT_OK;
        default:
            return sb_bad_option(CMD, argv, c);
        }
    }
    if (optind < argc)
        return sb_usage_error(CMD, "unexpected argument '%s' (try --help)", argv[optind]);
    if (target) {
        struct stat st;
        if (stat(target, &st) != 0)
            return sb_usage_error(CMD, "%s: %s", target, strerror(errno));
        if (!S_ISDIR(st.st_mode))
            return sb_usage_error(CMD, "%s: not a directory", target);
    }

    sb_system sys;
    memset(&sys, 0, sizeof sys);
    sb_sysinfo_collect(&sys, target);

    if (json) {
        json_t *o = json_pack("{s:o, s:o}", "hardware", kv_object(&sys.hardware), "software",
                              kv_object(&sys.software));
        if (target)
            json_object_set_new(o, "storage", kv_object(&sys.storage));
        char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        json_decref(o);
        if (!s) {
            free_system(&sys);
            sb_error("%s: cannot encode JSON", CMD);
            return SB_EXIT_RUNTIME;
        }
        puts(s);
        free(s);
    } else {
        print_line(&sys.hardware);
        print_line(&sys.software);
        print_line(&sys.storage);
    }
    free_system(&sys);
    if (fflush(stdout) != 0) {
        sb_error("%s: writing output: %s", CMD, strerror(errno));
        return SB_EXIT_RUNTIME;
    }
    return SB_EXIT_OK;
}
