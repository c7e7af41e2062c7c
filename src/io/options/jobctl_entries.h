/*
 * options_jobctl_entries — entries of the one option table (sb_io_options[], options.c) for fio's
 * job control (issue 27): io_size, number_ios, offset_increment, flow, exitall and
 * exit_what, continue_on_error and ignore_error, dedupe and compression of the written
 * data. Not a header of declarations: options.c includes it inside the table's
 * initializer (where J() is defined), so that these entries stay in their own file and
 * the table stays one. Their parsers and choices are in options_jobctl.c (declared in options.h).
 */
    {"io_size", a_io_size, SB_OPT_SIZE, J(io_size), 0, 0, "size", "SIZE",
     "bytes of I/O per thread (per loop), independent of size: less stops early, more goes "
     "round the region again, as fio's", SB_OPTC_JOB, SB_OPTF_DEF_DOC, NULL, NULL},
    {"number_ios", NULL, SB_OPT_INT, J(number_ios), 0, 0, "0", "N",
     "stop a thread after N I/Os if nothing else stopped it first (0: no limit)", SB_OPTC_JOB, 0,
     NULL, NULL},
    {"offset_increment", NULL, SB_OPT_SIZE, J(offset_increment), 0, 0, "0", "SIZE",
     "thread N of numjobs starts at offset + N * SIZE (N from 0), as fio's", SB_OPTC_JOB, 0, NULL,
     NULL},
    {"flow", NULL, SB_OPT_INT, J(flow), 0, 1u << 20, "0", "N",
     "weight in token-based flow control: the threads of the jobs with the same flow_id do "
     "I/Os in the ratio of their weights (0: no flow control)", SB_OPTC_TIMING, 0, NULL, NULL},
    {"flow_id", NULL, SB_OPT_INT, J(flow_id), 0, UINT32_MAX, "0", "N",
     "the flow a job's weight counts in", SB_OPTC_TIMING, 0, NULL, NULL},
    {"flow_sleep", NULL, SB_OPT_INT, J(flow_sleep_us), 0, 60000000, "0", "USEC",
     "when ahead of its weight, drain the queue and wait this many microseconds (0: retry at "
     "once)", SB_OPTC_TIMING, 0, NULL, NULL},
    {"exitall", NULL, SB_OPT_BOOL, J(exitall), 0, 0, "0", NULL,
     "when this job ends, end the jobs exit_what names", SB_OPTC_TIMING, SB_OPTF_SWITCH, NULL,
     NULL},
    {"exit_what", NULL, SB_OPT_CHOICE, J(exit_what), 0, 0, "group", "WHAT",
     "exitall ends: group (the jobs of its reporting group), stonewall (every job running) or "
     "all (every job running, and later ones end at once)", SB_OPTC_TIMING, 0,
     sb_opt_exit_what_choices, NULL},
    {"exitall_on_error", NULL, SB_OPT_BOOL, J(exitall_on_error), 0, 0, "0", NULL,
     "when this job fails, end every other job (later ones end at once)", SB_OPTC_TIMING,
     SB_OPTF_SWITCH, NULL, NULL},
    {"continue_on_error", NULL, SB_OPT_FUNC, J(continue_on_error), 0, 0, "none", "WHAT",
     "none | read | write | io | verify | all (0, 1): go on after such an error that "
     "ignore_error lists (EIO, EILSEQ by default); the errors are counted (total_err, "
     "first_error)", SB_OPTC_JOB, 0, NULL, sb_opt_parse_continue},
    {"ignore_error", NULL, SB_OPT_FUNC, J(ignore_error), 0, 0, "EIO:EILSEQ", "LISTS",
     "READ,WRITE,VERIFY lists of errors continue_on_error survives: ENOSPC:EIO or numbers; "
     "an empty list keeps the default", SB_OPTC_JOB, SB_OPTF_DEF_DOC, NULL,
     sb_opt_parse_ignore_error},
    {"error_dump", NULL, SB_OPT_BOOL, J(error_dump), 0, 0, "1", NULL,
     "print every error a job goes on after (0: only the one that stops it)", SB_OPTC_JOB,
     SB_OPTF_SWITCH, NULL, NULL},
    {"dedupe_percentage", NULL, SB_OPT_PCT, J(dedupe_percentage), 0, 100, "0", "PCT",
     "% of written blocks that repeat an earlier block's data (deduplicable)", SB_OPTC_JOB, 0,
     NULL, NULL},
    {"dedupe_mode", NULL, SB_OPT_CHOICE, J(dedupe_mode), 0, 0, "repeat", "MODE",
     "repeat: a repeated block is the last new one; working_set: one of a set of "
     "dedupe_working_set_percentage of the region's blocks", SB_OPTC_JOB, 0,
     sb_opt_dedupe_mode_choices, NULL},
    {"dedupe_working_set_percentage", NULL, SB_OPT_PCT, J(dedupe_ws_pct), 0, 100, "5", "PCT",
     "working_set: the set's size in % of the region", SB_OPTC_JOB, 0, NULL, NULL},
    {"dedupe_global", NULL, SB_OPT_BOOL, J(dedupe_global), 0, 0, "0", NULL,
     "working_set: every job of the run draws from the same set, so blocks repeat across jobs",
     SB_OPTC_JOB, SB_OPTF_SWITCH, NULL, NULL},
    {"buffer_compress_percentage", NULL, SB_OPT_PCT, J(compress_pct), 0, 100, "0", "PCT",
     "written data that compresses by about PCT %: each chunk random for the rest, then zeros",
     SB_OPTC_JOB, 0, NULL, NULL},
    {"buffer_compress_chunk", NULL, SB_OPT_SIZE, J(compress_chunk), 1, SB_IO_MAX_BS, "512", "SIZE",
     "the chunk buffer_compress_percentage applies to", SB_OPTC_JOB, 0, NULL, NULL},
    {"random_sequence_stride", NULL, SB_OPT_BOOL, J(dist.seq_stride), 0, 0, "0", NULL,
     "random_distribution=sequence: 0 repeats the blocks as given; 1 moves them on by the "
     "sequence's length each cycle (a strided block group), as fio's", SB_OPTC_OFFSETS,
     SB_OPTF_SWITCH, NULL, NULL},
    {"verify_interval", NULL, SB_OPT_SIZE, J(verify_interval), 0, SB_IO_MAX_BS, "bs", "SIZE",
     "with verify: a header (and checksum) every SIZE bytes of a block instead of one per "
     "block; divides bs, a multiple of 64, at least 128", SB_OPTC_VERIFY, SB_OPTF_DEF_DOC, NULL,
     NULL},
    {"verify_pattern", NULL, SB_OPT_FUNC, J(verify_pat), 0, 0, NULL, "PATTERN",
     "the verified blocks' data: 0xHEX bytes or a \"string\", over and over under each header; "
     "without verify it sets verify=pattern, as fio's", SB_OPTC_VERIFY, 0, NULL,
     sb_opt_parse_verify_pattern},
    {"verify_dump", NULL, SB_OPT_BOOL, J(verify_dump), 0, 0, "0", NULL,
     "on a mismatch, write the block as read and as expected to FILE.OFFSET.received and "
     ".expected in the working directory, as fio's", SB_OPTC_VERIFY, SB_OPTF_SWITCH, NULL, NULL},
    {"verify_fatal", NULL, SB_OPT_BOOL, J(verify_fatal), 0, 0, "1", NULL,
     "stop at the first mismatch: storbench always does (fio's default 0, going on, is refused)",
     SB_OPTC_VERIFY, SB_OPTF_SWITCH, NULL, NULL},
    {"verify_async", NULL, SB_OPT_INT, J(verify_async), 0, 1024, "0", "N",
     "fio's verify threads: storbench checks in the I/O threads, so any N runs alike",
     SB_OPTC_VERIFY, 0, NULL, NULL},
    {"fill_device", a_fill_device, SB_OPT_BOOL, J(fill_device), 0, 0, "0", NULL,
     "a sequential write job's region is the room left on the file system (the file's own "
     "size included); it writes until that is full and the ENOSPC that ends it is no error",
     SB_OPTC_JOB, SB_OPTF_SWITCH, NULL, NULL},
    {"create_serialize", NULL, SB_OPT_BOOL, J(create_serialize), 0, 0, "1", NULL,
     "fio's: lay out the files one after another. storbench always does (each job lays out "
     "its files before its threads start), so 0 and 1 run alike", SB_OPTC_JOB, SB_OPTF_SWITCH,
     NULL, NULL},
    {"fallocate", NULL, SB_OPT_CHOICE, J(fallocate), 0, 0, "native", "MODE",
     "how a write job's new file gets its size: native or posix (allocated; sparse where the "
     "file system cannot), keep (allocated with FALLOC_FL_KEEP_SIZE, then sized) or none "
     "(sparse), as fio's", SB_OPTC_JOB, 0, sb_opt_fallocate_choices, NULL},
