/*
 * verify_algos — the checksums of fio's verify= algorithms beyond the first four
 * (verify.h): CRCs from ISA-L (crc64, crc32, crc16; crc7 by a table made here), digests
 * from OpenSSL's EVP interface (md5, sha1, sha224 .. sha512, sha3-*). A digest longer
 * than the header's 32-byte field keeps its first 32 bytes, still far beyond what a
 * block check needs. meta and pattern have no checksum.
 */
#include "io/verify/verify.h"

#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <string.h>

const char *const sb_verify_algo_names[SB_VERIFY_N] = {
    "none", "crc32c", "xxhash", "sha256", "pattern", "crc64", "crc32", "crc16", "crc7", "md5",
    "sha1", "sha224", "sha384", "sha512", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "meta",
};

static const EVP_MD *digest_of(sb_verify_algo a)
{
    switch (a) {
    case SB_VERIFY_MD5: return EVP_md5();
    case SB_VERIFY_SHA1: return EVP_sha1();
    case SB_VERIFY_SHA224: return EVP_sha224();
    case SB_VERIFY_SHA384: return EVP_sha384();
    case SB_VERIFY_SHA512: return EVP_sha512();
    case SB_VERIFY_SHA3_224: return EVP_sha3_224();
    case SB_VERIFY_SHA3_256: return EVP_sha3_256();
    case SB_VERIFY_SHA3_384: return EVP_sha3_384();
    case SB_VERIFY_SHA3_512: return EVP_sha3_512();
    default: return NULL;
    }
}

unsigned sb_verify_csum_len(sb_verify_algo a)
{
    switch (a) {
    case SB_VERIFY_CRC32C: case SB_VERIFY_CRC32: return 4;
    case SB_VERIFY_XXHASH: case SB_VERIFY_CRC64: return 8;
    case SB_VERIFY_CRC16: return 2;
    case SB_VERIFY_CRC7: return 1;
    case SB_VERIFY_SHA256: return 32;
    default: {
        const EVP_MD *md = digest_of(a);
        int n = md ? EVP_MD_get_size(md) : 0;
        return n > 32 ? 32 : n > 0 ? (unsigned)n : 0;
    }
    }
}

/* CRC-7, polynomial x^7 + x^3 + 1 (0x09), kept in the top 7 bits of a byte. */
static uint8_t crc7_table[256];
static pthread_once_t crc7_once = PTHREAD_ONCE_INIT;
static void crc7_init(void)
{
    for (unsigned i = 0; i < 256; i++) {
        uint8_t c = (uint8_t)i;
        for (int k = 0; k < 8; k++)
            c = (uint8_t)(c & 0x80 ? (c << 1) ^ (0x09 << 1) : c << 1);
        crc7_table[i] = c;
    }
}

static uint8_t crc7(const uint8_t *p, size_t n)
{
    pthread_once(&crc7_once, crc7_init);
    uint8_t c = 0;
    while (n--)
        c = crc7_table[c ^ *p++];
    return c >> 1;
}

void sb_verify_csum(sb_verify_algo a, const void *buf, uint32_t len, uint8_t out[32])
{
    memset(out, 0, 32);
    if (a == SB_VERIFY_CRC64) {
        uint64_t c = crc64_ecma_refl(0, buf, len);
        memcpy(out, &c, 8);
    } else if (a == SB_VERIFY_CRC32) {
        uint32_t c = crc32_gzip_refl(0, buf, len);
        memcpy(out, &c, 4);
    } else if (a == SB_VERIFY_CRC16) {
        uint16_t c = crc16_t10dif(0, buf, len);
        memcpy(out, &c, 2);
    } else if (a == SB_VERIFY_CRC7) {
        out[0] = crc7(buf, len);
    } else if (digest_of(a)) {
        unsigned char md[EVP_MAX_MD_SIZE];
        unsigned n = 0;
        EVP_Digest(buf, len, md, &n, digest_of(a), NULL);
        memcpy(out, md, n > 32 ? 32 : n);
    }
}
