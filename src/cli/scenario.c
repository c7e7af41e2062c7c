/*
 * scenario — `storbench scenario run FILE --suite NAME --result NAME`: builds
 * each storage configuration of a scenario file (docs/scenarios.md) on loop
 * devices over fresh image files or on real devices the user gave up, runs
 * the suite on it under the configuration's identifier, tears it down, and
 * goes on to the next; `scenario check FILE` shows the plan; `scenario
 * cleanup` undoes what a killed run left behind; `scenario vm-guest DIR`
 * (internal) is a --vm guest's own run.
 *
 * Everything that can be refused is refused before the first configuration
 * is built: a bad file, unknown tests, bcache on a kernel without it, real
 * devices not named in --destroy-data-on or in use, identifiers already in
 * the result file. Each configuration's figures are saved (atomic replace)
 * as soon as it is done; a configuration that fails or is interrupted adds
 * nothing, and whatever it built is undone before the next one starts.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/select.h"
#include "core/printable.h"
#include "cli/save.h"
#include "cli/scenario_vm.h"
#include "runner/selection.h"
#include "core/cpubusy.h"
#include "core/interrupt.h"
#include "core/log.h"
#include "core/strutil.h"
#include "core/units.h"
#include "core/workdir.h"
#include "scenario/modeled.h"
#include "scenario/device.h"
#include "scenario/lab_dilate.h"
#include "scenario/layout.h"
#include "scenario/plan.h"
#include "scenario/scenario.h"
#include "scenario/run.h"
#include "scenario/state.h"
#include "scenario/vm_guest.h"
#include "workloads/durability/durability_guard.h"

/* getopt values of run's options that guest_arg() passes on. */
#define OPT_RUN_EXACT 0x180
#define OPT_RUN_NO_DROP 0x181
#define DEFAULT_IMAGE_SIZE "1G"
/* Under --vm: the dd suite's 1 GiB fits on every device (preallocated, one guest at a time). */
#define DEFAULT_VM_IMAGE_SIZE "2G"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: storbench scenario run FILE --suite NAME --result NAME [options]\n"
            "       storbench scenario check FILE [--vm]\n"
            "       storbench scenario cleanup [--images DIR]\n"
            "\n"
            "run: builds each configuration of the scenario file (filesystem, btrfs RAID profile,\n"
            "mount options, bcache), runs the suite on it under the configuration's identifier,\n"
            "tears it down and goes on to the next. Needs root. See docs/scenarios.md. A\n"
            "configuration's device-model (ssd-850evo, hdd-hua723020 ...) makes each loop device\n"
            "a modeled disk, answered when that device would have (docs/devices.md).\n"
            "\n"
            "  -s, --suite NAME           suite or test to run on each configuration (repeatable)\n"
            "  -r, --result NAME          result file the identifiers are added to\n"
            "      --images DIR           where the loop devices' image files are made\n"
            "                             (default: $STORBENCH_TARGET or /var/tmp)\n"
            "      --image-size SIZE      size of each image (default " DEFAULT_IMAGE_SIZE ", " DEFAULT_VM_IMAGE_SIZE
            " with --vm)\n"
            "      --devices DEV,...      use these block devices instead of images: EVERYTHING ON\n"
            "                             THEM IS DESTROYED\n"
            "      --destroy-data-on DEV,...  required with --devices: names every device again\n"
            "  -o, --option KEY=VALUE     set a test option (as in 'storbench run')\n"
            "  -n, --runs N               scheduled runs per test (default 3)\n"
            "      --exact-runs           run exactly --runs times\n"
            "      --only ID              build only this configuration (repeatable)\n"
            "      --replace              replace identifiers already in the result file\n"
            "      --no-drop-caches       do not drop the page cache between runs\n"
            "      --results-dir DIR      where named result files live\n"
            "  -v, --verbose              say more (each object made and removed)\n"
            "  -h, --help                 this text\n"
            "%s"
            "\n"
            "check: parses FILE and prints what would be built. cleanup: unmounts, detaches and\n"
            "removes what killed runs left (from their journals in $STORBENCH_STATE_DIR or\n"
            "/run/storbench; killed 'run durability's too), and with --images DIR also stray\n"
            "image files in DIR. 'scenario run' does the same first, and says so.\n"
            "Exit status: 0 done, 1 runtime failure, 2 bad usage, 130 interrupted.\n", sb_scenario_vm_help);
}

static int check_file(const char *file, sb_scenario *s, bool vm, const sb_vm_opts *vmo);

static int cmd_check(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        SB_SCENARIO_VM_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    optind = 1;
    opterr = 0;
    int c;
    bool vm = false;
    sb_vm_opts vmo;
    sb_scenario_vm_defaults(&vmo);
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c >= SB_OPT_VM && c <= SB_OPT_VM_LAST) {
            if (sb_scenario_vm_option(c, optarg, &vm, &vmo))
                return SB_EXIT_USAGE;
            continue;
        }
        if (c != 'h')
            return sb_bad_option("scenario", argv, c);
        usage(stdout);
        return SB_EXIT_OK;
    }
    if (argc - optind != 1)
        return sb_usage_error("scenario", "check takes one FILE");
    if (vm && (c = sb_scenario_vm_settle(&vmo)) != 0)
        return c;
    sb_scenario *s = sb_xcalloc(1, sizeof *s); /* large: every configuration */
    int rc = check_file(argv[optind], s, vm, &vmo);
    free(s);
    return rc;
}

/* check's FILE: parsed into s, each configuration's line and whether it can be built. */
static int check_file(const char *file, sb_scenario *s, bool vm, const sb_vm_opts *vmo)
{
    bool lab = vm && vmo->time == SB_VM_TIME_VIRTUAL;
    char err[1024];
    int rc = sb_scenario_load(file, s, err, sizeof err);
    if (rc == -EINVAL) /* the file says something wrong: bad usage of the scenario format */
        return sb_usage_error("scenario", "%s", err);
    if (rc < 0) { /* missing or unreadable: a runtime failure, as for every other file */
        sb_error("scenario: %s", err);
        return SB_EXIT_RUNTIME;
    }
    if (vm)
        sb_vm_class_models(s, lab);
    /* For a terminal: no ESC or BEL from the file (core/printable.h). */
    printf("%s\n", s->title[0] ? sb_make_printable(s->title) : "(no title)");
    if (s->description[0])
        printf("%s\n", sb_make_printable(s->description));
    char why[512];
    for (size_t i = 0; i < s->n; i++) {
        char line[1024];
        sb_scn_plan_line(&s->configs[i], line, sizeof line);
        printf("  %s: %s\n", sb_make_printable(s->configs[i].identifier), sb_make_printable(line));
        if (vm)
            sb_scenario_vm_plan(&s->configs[i], lab);
        if (sb_scn_buildable(&s->configs[i], vm, lab, why, sizeof why) < 0)
            printf("    cannot be built here%s: %s\n", vm ? " (--vm)" : "", why);
    }
    if (vm)
        sb_scenario_vm_plan_footer(vmo);
    return SB_EXIT_OK;
}

static void say_line(void *arg, const char *line)
{
    printf("durability: %s\n", line);
}

static int cmd_cleanup(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"images", required_argument, NULL, 'I'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *images = NULL;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'I': images = optarg; break;
        case 'h': usage(stdout); return SB_EXIT_OK;
        default: return sb_bad_option("scenario", argv, c);
        }
    }
    if (optind < argc)
        return sb_usage_error("scenario", "cleanup: unexpected '%s'", argv[optind]);
    unsigned found, busy, swept = 0;
    char err[1024];
    int rc = sb_state_cleanup(stdout, &found, &busy, err, sizeof err);
    int exit_code = SB_EXIT_OK;
    if (rc < 0) {
        sb_error("scenario: cleanup: %s", err);
        exit_code = SB_EXIT_RUNTIME;
    }
    /* and what killed `run durability`s (and their guardians) left */
    found += dur_cleanup_stale(say_line, NULL);
    if (images) {
        rc = sb_state_sweep_dir(images, stdout, &swept, err, sizeof err);
        if (rc < 0) {
            sb_error("scenario: cleanup: %s", err);
            exit_code = SB_EXIT_RUNTIME;
        }
    }
    printf("%u interrupted run%s cleaned up%s", found, found == 1 ? "" : "s", images ? "" : "\n");
    if (images)
        printf(", %u stray file%s removed from %s\n", swept, swept == 1 ? "" : "s", images);
    if (busy)
        printf("%u run%s still going, left alone\n", busy, busy == 1 ? "" : "s");
    return exit_code;
}

typedef struct run_opts {
    const char *file, *result, *images, *results_dir;
    uint64_t image_size;
    unsigned runs;
    bool exact, replace, drop, verbose;
    char *devices, *destroy;
    bool vm;
    sb_vm_opts vmo;
    /* The options the guest's `scenario run` gets (--vm): -s, -o, -n, --exact-runs ... */
    char *guest_args[2 * (16 + SB_MAX_ASSIGNMENTS) + 8];
    size_t n_guest_args;
} run_opts;

/* The checks on run's operands and options that getopt cannot make; sets o->file and
 * o->image_size (*size_textp, when NULL, becomes the default). 0 or SB_EXIT_USAGE. */
static int check_run_args(run_opts *o, int argc, char **argv, size_t n_suites, const char **size_textp)
{
    if (!*size_textp)
        *size_textp = o->vm ? DEFAULT_VM_IMAGE_SIZE : DEFAULT_IMAGE_SIZE;
    const char *size_text = *size_textp;
    if (optind + 1 != argc)
        return sb_usage_error("scenario", "run takes one scenario FILE (see 'storbench scenario --help')");
    o->file = argv[optind];
    if (!n_suites)
        return sb_usage_error("scenario", "name the tests to run on each configuration: --suite NAME "
                              "(see 'storbench list')");
    if (!o->result)
        return sb_usage_error("scenario", "--result NAME is required (the page the identifiers go to)");
    if (sb_parse_size(size_text, &o->image_size) < 0 || o->image_size < (64u << 20))
        return sb_usage_error("scenario", "--image-size '%s': a size of at least 64M (btrfs wants 128M+)",
                              size_text);
    if (o->destroy && !o->devices)
        return sb_usage_error("scenario", "--destroy-data-on without --devices: name the devices to use "
                              "with --devices");
    if (o->vm && o->devices)
        return sb_usage_error("scenario", "--vm builds on emulated disks: --devices goes without --vm");
    return 0;
}

/* The --suite names with the --option assignments applied, validated. 0 or SB_EXIT_USAGE. */
static int select_tests(sb_selection *sel, char **suites, size_t n_suites, char **assignments,
                        size_t n_assign)
{
    sel->n = 0;
    for (size_t i = 0; i < n_suites; i++)
        if (sb_cli_select("scenario", sel, suites[i], false))
            return SB_EXIT_USAGE;
    if (sb_cli_select_options("scenario", sel, assignments, n_assign) ||
        sb_cli_select_validate("scenario", sel))
        return SB_EXIT_USAGE;
    return 0;
}

/* Where each configuration's figures go: merged into the result file as it is then
 * (re-read under its lock, cli/save.h), saved at once. */
struct saver {
    char path[PATH_MAX];
    const char *result, *title, *description;
    bool replace;
};

/* Reads the result file (a missing one is empty) to refuse, before anything is built,
 * identifiers it already has unless --replace. 0 or SB_EXIT_RUNTIME after printing why. */
static int load_result(struct saver *sv, const sb_scenario *s)
{
    char err[1024];
    sb_resultfile existing;
    sb_resultfile_init(&existing);
    int rc = sb_resultfile_load(sv->path, &existing, err, sizeof err);
    if (rc < 0 && rc != -ENOENT) {
        sb_error("scenario: %s", err);
        sb_resultfile_free(&existing);
        return SB_EXIT_RUNTIME;
    }
    rc = 0;
    for (size_t i = 0; i < s->n && !sv->replace && rc == 0; i++)
        if (sb_resultfile_find_system(&existing, s->configs[i].identifier)) {
            sb_error("scenario: identifier '%s' is already in %s (use --replace)", s->configs[i].identifier,
                     sv->path);
            rc = SB_EXIT_RUNTIME;
        }
    sb_resultfile_free(&existing);
    return rc;
}

/* A signal during the save lets it finish; the driver then stops (scenario/run.c). */
static int save_config(void *arg, const sb_scn_config *c, const sb_resultfile *fresh)
{
    struct saver *sv = arg;
    char err[1024];
    if (sb_result_merge_save("scenario", sv->path, sv->result, fresh, sv->replace, sv->title,
                             sv->description, err, sizeof err) < 0) {
        sb_error("scenario: %s", err);
        return -EIO;
    }
    printf("Saved '%s' in %s\n", c->identifier, sv->path);
    return 0;
}

/* Builds, benchmarks and saves every configuration (under --vm after preparing the guests'
 * kernel and initramfs), and says how many were saved. The exit code. */
static int build_all(run_opts *o, const sb_scenario *s, const sb_selection *sel, sb_device *real,
                     struct saver *sv)
{
    char err[1024];
    sb_vm *vm = sb_xcalloc(1, sizeof *vm); /* large: paths */
    if (o->vm) {
        sb_interrupt_install();
        if (sb_vm_prepare(vm, &o->vmo, o->images, err, sizeof err) < 0) {
            if (sb_interrupted())
                sb_error("scenario: interrupted while preparing the guest");
            else
                sb_error("scenario: --vm: %s", err);
            sb_vm_close(vm);
            free(vm);
            return sb_interrupted() ? SB_EXIT_INTERRUPTED : SB_EXIT_RUNTIME;
        }
    }
    sb_scn_run_opts ro = {.images = o->images, .image_size = o->image_size, .runs = o->runs, .exact = o->exact,
                          .drop = o->drop, .verbose = o->verbose, .real = o->devices ? real : NULL, .tests = sel->cfg, .n_tests = sel->n,
                          .save = save_config, .save_arg = sv, .vm = o->vm ? vm : NULL, .file = o->file,
                          .guest_args = o->guest_args, .n_guest_args = o->n_guest_args};
    size_t saved, failed;
    int exit_code = sb_scn_run(s, &ro, &saved, &failed);
    if (o->vm)
        sb_vm_close(vm);
    free(vm);
    /* Every configuration was tried (none when the journal could not be opened): say so. */
    if (exit_code != SB_EXIT_INTERRUPTED && saved + failed == s->n)
        printf("\n%zu of %zu configuration%s saved in %s%s\n", saved, s->n, s->n == 1 ? "" : "s", sv->path,
               failed ? " (see the errors above)" : "");
    return exit_code;
}

/* Keeps an option the guest's `scenario run` needs too (under --vm). */
static void guest_arg(run_opts *o, int c, char *arg)
{
    static char *names[] = {"-s", "-o", "-n", "--exact-runs", "--no-drop-caches", "-v"};
    int k = c == 's' ? 0 : c == 'o' ? 1 : c == 'n' ? 2 : c == OPT_RUN_EXACT ? 3 : c == OPT_RUN_NO_DROP ? 4
          : c == 'v' ? 5 : -1;
    if (k < 0 || o->n_guest_args + 2 > sizeof o->guest_args / sizeof o->guest_args[0])
        return;
    o->guest_args[o->n_guest_args++] = names[k];
    if (k < 3) /* a copy: option parsing later splits some arguments in place */
        o->guest_args[o->n_guest_args++] = sb_xstrdup(arg);
}

/* Frees the copies guest_arg() made (the arguments of -s, -o and -n). */
static void guest_args_free(run_opts *o)
{
    for (size_t i = 0; i < o->n_guest_args; i++) {
        const char *name = o->guest_args[i];
        if (!strcmp(name, "-s") || !strcmp(name, "-o") || !strcmp(name, "-n"))
            free(o->guest_args[++i]);
    }
    o->n_guest_args = 0;
}

/* What `scenario run` holds while it runs: large (a scenario, a selection, the real
 * devices), so on the heap, zeroed. */
typedef struct scn_run {
    run_opts o;
    sb_scenario s;
    sb_selection sel;
    sb_device real[SB_SCN_MAX_DEVICES];
    bool in_guest; /* a guest's own run (scenario vm-guest), on emulated devices */
    unsigned dilate; /* in a lab guest, --vm-dilate K (1: none) */
} scn_run;

/* --vm-dilate K (scenario/lab_dilate.h): on the host, a test whose figures cannot be
 * scaled back is refused (exit 2) before any guest boots; in the lab guest, the tests'
 * durations and the configurations' filesystem timers are stretched by K. */
static int dilate_run(scn_run *r, char *err, size_t errlen)
{
    if (!r->in_guest && !r->o.vm && r->o.vmo.dilate_set)
        return sb_usage_error("scenario", "--vm-dilate is for the device lab (--vm --vm-time virtual)");
    if (!r->in_guest && r->o.vm && r->o.vmo.dilate > 1)
        for (size_t i = 0; i < r->sel.n; i++) {
            const char *why = sb_lab_dilate_refusal(&r->sel.cfg[i]);
            if (why)
                return sb_usage_error("scenario", "--vm-dilate %u: test %s cannot run dilated: %s", r->o.vmo.dilate,
                                      r->sel.cfg[i].workload->name, why);
        }
    if (!r->in_guest || r->dilate <= 1)
        return 0;
    if (sb_lab_dilate_tests(r->sel.cfg, r->sel.n, r->dilate, err, errlen) < 0)
        return sb_usage_error("scenario", "%s", err);
    for (size_t i = 0; i < r->s.n; i++)
        sb_lab_dilate_config(&r->s.configs[i], r->dilate);
    return 0;
}

static int cmd_run_in(int argc, char **argv, scn_run *r)
{
    enum { OPT_IMAGES = 0x100, OPT_IMAGE_SIZE, OPT_DEVICES, OPT_DESTROY, OPT_REPLACE, OPT_EXACT = OPT_RUN_EXACT,
           OPT_NO_DROP = OPT_RUN_NO_DROP, OPT_ONLY };
    static const struct option longopts[] = {
        {"suite", required_argument, NULL, 's'},
        {"result", required_argument, NULL, 'r'},
        {"images", required_argument, NULL, OPT_IMAGES},
        {"image-size", required_argument, NULL, OPT_IMAGE_SIZE},
        {"devices", required_argument, NULL, OPT_DEVICES},
        {"destroy-data-on", required_argument, NULL, OPT_DESTROY},
        {"option", required_argument, NULL, 'o'},
        {"runs", required_argument, NULL, 'n'},
        {"exact-runs", no_argument, NULL, OPT_EXACT},
        {"replace", no_argument, NULL, OPT_REPLACE},
        {"no-drop-caches", no_argument, NULL, OPT_NO_DROP},
        {"only", required_argument, NULL, OPT_ONLY},
        {"results-dir", required_argument, NULL, SB_OPT_RESULTS_DIR},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        SB_SCENARIO_VM_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    run_opts *o = &r->o;
    *o = (run_opts){.runs = 3, .drop = true};
    sb_scenario_vm_defaults(&o->vmo);
    char *suites[16], *assignments[SB_MAX_ASSIGNMENTS];
    const char *only[SB_SCN_MAX_CONFIGS];
    size_t n_suites = 0, n_assign = 0, n_only = 0;
    const char *size_text = NULL;
    o->images = getenv("STORBENCH_TARGET") && *getenv("STORBENCH_TARGET") ? getenv("STORBENCH_TARGET")
                                                                         : "/var/tmp";
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":s:r:o:n:vh", longopts, NULL)) != -1) {
        if (c >= SB_OPT_VM && c <= SB_OPT_VM_LAST) {
            if (sb_scenario_vm_option(c, optarg, &o->vm, &o->vmo))
                return SB_EXIT_USAGE;
            continue;
        }
        guest_arg(o, c, optarg);
        switch (c) {
        case 's':
            if (n_suites >= 16)
                return sb_usage_error("scenario", "too many --suite");
            suites[n_suites++] = optarg;
            break;
        case 'r': o->result = optarg; break;
        case OPT_IMAGES: o->images = optarg; break;
        case OPT_IMAGE_SIZE: size_text = optarg; break;
        case OPT_DEVICES: o->devices = optarg; break;
        case OPT_DESTROY: o->destroy = optarg; break;
        case 'o':
            if (sb_assignment_arg("scenario", optarg, assignments, &n_assign))
                return SB_EXIT_USAGE;
            break;
        case 'n':
            if (sb_runs_arg("scenario", optarg, &o->runs))
                return SB_EXIT_USAGE;
            break;
        case OPT_EXACT: o->exact = true; break;
        case OPT_REPLACE: o->replace = true; break;
        case OPT_NO_DROP: o->drop = false; break;
        case OPT_ONLY:
            if (n_only >= SB_SCN_MAX_CONFIGS)
                return sb_usage_error("scenario", "too many --only");
            only[n_only++] = optarg;
            break;
        case SB_OPT_RESULTS_DIR: o->results_dir = optarg; break;
        case 'v': o->verbose = true; break;
        case 'h': usage(stdout); return SB_EXIT_OK;
        default: return sb_bad_option("scenario", argv, c);
        }
    }
    int rc;
    if ((rc = check_run_args(o, argc, argv, n_suites, &size_text)) != 0)
        return rc;
    if (o->vm && (rc = sb_scenario_vm_settle(&o->vmo)) != 0)
        return rc;

    sb_scenario *s = &r->s;
    char err[1024];
    if ((rc = sb_scenario_load(o->file, s, err, sizeof err)) < 0) {
        if (rc == -EINVAL)
            return sb_usage_error("scenario", "%s", err);
        sb_error("scenario: %s", err);
        return SB_EXIT_RUNTIME;
    }
    if (o->vm) /* device-class names a preset under --vm (scenario/vm_nbd.h) */
        sb_vm_class_models(s, o->vmo.time == SB_VM_TIME_VIRTUAL);
    if ((rc = sb_scn_keep_only(s, only, n_only, o->file)) != 0)
        return rc;

    sb_selection *sel = &r->sel;
    if ((rc = select_tests(sel, suites, n_suites, assignments, n_assign)) != 0 || (rc = dilate_run(r, err, sizeof err)) != 0)
        return rc;

    sb_device *real = r->real;
    char images_real[PATH_MAX];
    sb_scn_plan plan = {.images = o->images, .image_size = o->image_size, .size_text = size_text,
                        .devices = o->devices, .destroy = o->destroy, .vm = o->vm,
                        .vm_lab = o->vm && o->vmo.time == SB_VM_TIME_VIRTUAL,
                        .in_guest = r->in_guest};
    if ((rc = sb_scn_plan_check(&plan, s, sel->cfg, sel->n, real, images_real)) != 0)
        return rc;
    if (plan.vm_lab && o->vmo.memory)
        sb_vm_lab_memory_check(s, o->image_size, o->vmo.memory);
    o->images = images_real;

    /* ---- the result file ---- */
    struct saver sv = {.result = o->result, .replace = o->replace, .title = s->title[0] ? s->title : NULL,
                       .description = s->description};
    if ((rc = sb_cli_result_path("scenario", o->result, o->results_dir, sv.path, sizeof sv.path)))
        return rc; /* a bad name (2), or a symlink refused before anything is built (1) */
    if ((rc = load_result(&sv, s)) != 0)
        return rc;
    return build_all(o, s, sel, real, &sv);
}

static int cmd_run(int argc, char **argv, bool in_guest, unsigned dilate)
{
    scn_run *r = sb_xcalloc(1, sizeof *r);
    r->in_guest = in_guest;
    r->dilate = dilate;
    int rc = cmd_run_in(argc, argv, r);
    guest_args_free(&r->o);
    free(r);
    return rc;
}

/* `scenario vm-guest DIR` (internal: run by the guest, see scenario/vm_guest.h): the
 * `scenario run` the host wrote into DIR, as a guest's run. */
static int cmd_vm_guest(int argc, char **argv)
{
    if (argc != 2)
        return sb_usage_error("scenario", "vm-guest DIR is run inside a 'scenario run --vm' guest only");
    char **args, err[1024];
    int n;
    sb_vm_guest_lab lab = {.n = 0, .dilate = 1}; /* under virtual time, the disks this guest serves itself */
    if (sb_vm_guest_args(argv[1], 15, &args, &n, &lab, err, sizeof err) < 0) {
        sb_vm_guest_lab_end(&lab);
        sb_error("scenario: vm-guest: %s", err);
        return SB_EXIT_RUNTIME;
    }
    /* In the device lab every figure gets its test's vCPU busy share (entries[].vcpu_busy_pct):
     * the guest has one virtual vCPU, whose idle time is the modeled disks' (core/cpubusy.h) */
    sb_cpubusy_enable(lab.n > 0);
    int rc = n >= 2 && !strcmp(args[1], "run") ? cmd_run(n - 1, args + 1, true, lab.dilate)
                                                 : sb_usage_error("scenario", "vm-guest: %s/args is not a run", argv[1]);
    sb_vm_guest_lab_end(&lab);
    sb_vm_guest_free(args, n);
    return rc;
}

int sb_cmd_scenario(int argc, char **argv)
{
    if (argc < 2)
        return sb_usage_error("scenario", "run, check or cleanup (see 'storbench scenario --help')");
    const char *sub = argv[1];
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
        usage(stdout);
        return SB_EXIT_OK;
    }
    if (!strcmp(sub, "run"))
        return cmd_run(argc - 1, argv + 1, false, 1);
    if (!strcmp(sub, "check"))
        return cmd_check(argc - 1, argv + 1);
    if (!strcmp(sub, "cleanup"))
        return cmd_cleanup(argc - 1, argv + 1);
    if (!strcmp(sub, "vm-guest"))
        return cmd_vm_guest(argc - 1, argv + 1);
    return sb_usage_error("scenario", "unknown subcommand '%s' (run, check or cleanup)", sub);
}
