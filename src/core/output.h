/*
 * output — standard output that remembers why it failed. stdio keeps only an
 * error flag: by the time a command ends, errno says nothing about the write
 * that failed an hour earlier, and "cannot write to standard output:
 * Input/output error" was printed for a full disk or a closed pipe. main()
 * makes stdout a stream on fd 1 whose writes record the errno of the first
 * failure (ENOSPC, EPIPE ...), and checks it when the command is done
 * (docs/architecture.md, "Output errors").
 */
#ifndef SB_OUTPUT_H
#define SB_OUTPUT_H

/* Replaces stdout by the recording stream (line-buffered on a terminal, else fully
 * buffered, as stdio does). 0, or -errno with stdout left as it was. Call before anything
 * is printed. */
int sb_output_track_stdout(void);

/* Flushes stdout: 0 when everything printed was written, else the errno of the first
 * write that failed (when stdout was not replaced: errno of the flush, else EIO). */
int sb_output_stdout_error(void);

#endif
