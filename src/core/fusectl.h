/*
 * fusectl — aborting a FUSE connection through the kernel's fusectl file system:
 * every request it holds fails and none waits any more, so that a FUSE server that
 * died or hangs cannot leave a loop device, a mount or a sync waiting on it for ever.
 * The durability recorder's leftovers and the modeled devices' undo both use it.
 */
#ifndef SB_CORE_FUSECTL_H
#define SB_CORE_FUSECTL_H

#define SB_FUSECTL "/sys/fs/fuse/connections"

/* conn: the connection's number, the FUSE superblock's dev_t as the kernel numbers it
 * ((major << 20) | minor). Mounts fusectl when it is not. 0, or -errno (-ENOENT: the
 * connection is gone already, its server has exited). */
int sb_fusectl_abort(unsigned long conn);

#endif
