/*
 * options_files_entries — entries of the one option table (sb_io_options[], options.c) for
 * several files per job (file_service_type, openfiles, filename_format), how files are
 * made (create_on_open, create_fsync, allow_file_create; create_serialize is with the
 * job-control entries), allow_mounted_write (core/devguard.h)
 * and the latency percentiles fio prints (clat_, slat_, lat_percentiles). Not a
 * header of declarations: options.c includes it inside the table's initializer (where J()
 * is defined), as options_jobctl_entries.h. file_service_type's parser is in
 * options_files.c (declared in options.h); the files themselves are io/files.c.
 */
    {"file_service_type", NULL, SB_OPT_FUNC, J(file_service), 0, 0, "roundrobin", "TYPE",
     "with several files, which one the next I/O goes to: roundrobin | random | sequential "
     "(:N I/Os before switching) | zipf | pareto | normal (:SKEW), as fio's", SB_OPTC_JOB, 0,
     NULL, sb_opt_parse_file_service},
    {"openfiles", NULL, SB_OPT_INT, J(openfiles), 1, 0, "nrfiles", "N",
     "with several files, serve at most N at a time (the next comes in when one is done)",
     SB_OPTC_JOB, SB_OPTF_DEF_DOC, NULL, NULL},
    {"filename_format", NULL, SB_OPT_STR, J(filename_format), 0, 0, "$jobname.$jobnum.$filenum",
     "FMT", "the names of the files made in --directory ($jobname, $jobnum, $filenum); names "
     "that come out alike are one file, shared", SB_OPTC_JOB, SB_OPTF_DEF_DOC, NULL, NULL},
    {"create_on_open", NULL, SB_OPT_BOOL, J(create_on_open), 0, 0, "0", NULL,
     "a new file is neither allocated nor laid out before the run: the writes extend it, reads find holes or its end",
     SB_OPTC_JOB, SB_OPTF_SWITCH, NULL, NULL},
    {"create_fsync", NULL, SB_OPT_BOOL, J(create_fsync), 0, 0, "1", NULL,
     "fsync a file after laying it out", SB_OPTC_JOB, SB_OPTF_SWITCH, NULL, NULL},
    {"allow_file_create", NULL, SB_OPT_BOOL, J(allow_file_create), 0, 0, "1", NULL,
     "0: create no file; every file the job names must exist (as fio's)", SB_OPTC_JOB,
     SB_OPTF_SWITCH, NULL, NULL},
    {"allow_mounted_write", NULL, SB_OPT_BOOL, J(allow_mounted_write), 0, 0, "0", NULL,
     "1: write or trim a block device even while it (or a partition of it) is mounted, as "
     "fio's; the other device rules stay (docs/safety.md)", SB_OPTC_JOB, SB_OPTF_SWITCH, NULL, NULL},
    {"clat_percentiles", NULL, SB_OPT_BOOL, J(clat_percentiles), 0, 0, "1", NULL,
     "print completion latency percentiles", SB_OPTC_JOB, SB_OPTF_SWITCH, NULL, NULL},
    {"slat_percentiles", NULL, SB_OPT_BOOL, J(slat_percentiles), 0, 0, "0", NULL,
     "print submission latency percentiles (asynchronous engines: synchronous ones have no "
     "submission latency, as fio's)", SB_OPTC_JOB, SB_OPTF_SWITCH, NULL, NULL},
    {"lat_percentiles", NULL, SB_OPT_BOOL, J(lat_percentiles), 0, 0, "0", NULL,
     "print total latency percentiles (submission and completion)", SB_OPTC_JOB,
     SB_OPTF_SWITCH, NULL, NULL},
