/*
 * Stub of miniaudio for building the Ollama server from its Go module.
 *
 * The module zip omits llama/llama.cpp/vendor/, so mtmd-helper.cpp cannot
 * find the real miniaudio.h. Hearth's tests never send audio, so every
 * decoder function here fails: audio input is reported as "not audio".
 */
#ifndef HEARTH_MINIAUDIO_STUB_H
#define HEARTH_MINIAUDIO_STUB_H

#include <stddef.h>
#include <stdint.h>

typedef int ma_result;
typedef uint32_t ma_uint32;
typedef uint64_t ma_uint64;

#define MA_SUCCESS 0
#define MA_ERROR (-1)

typedef enum { ma_format_unknown = 0, ma_format_f32 = 5 } ma_format;
typedef enum { ma_encoding_format_unknown = 0, ma_encoding_format_wav } ma_encoding_format;

typedef struct {
    ma_format format;
    ma_uint32 channels;
    ma_uint32 sampleRate;
} ma_decoder_config;

typedef struct {
    int unused;
} ma_decoder;

static inline ma_decoder_config ma_decoder_config_init(ma_format format, ma_uint32 channels, ma_uint32 sampleRate) {
    ma_decoder_config c;
    c.format = format;
    c.channels = channels;
    c.sampleRate = sampleRate;
    return c;
}

static inline ma_result ma_decoder_init_memory(const void *data, size_t size, const ma_decoder_config *config, ma_decoder *decoder) {
    (void)data; (void)size; (void)config; (void)decoder;
    return MA_ERROR;
}

static inline ma_result ma_decoder_get_length_in_pcm_frames(ma_decoder *decoder, ma_uint64 *length) {
    (void)decoder;
    if (length) *length = 0;
    return MA_ERROR;
}

static inline ma_result ma_decoder_read_pcm_frames(ma_decoder *decoder, void *frames, ma_uint64 count, ma_uint64 *read) {
    (void)decoder; (void)frames; (void)count;
    if (read) *read = 0;
    return MA_ERROR;
}

static inline ma_result ma_decoder_uninit(ma_decoder *decoder) {
    (void)decoder;
    return MA_SUCCESS;
}

#endif /* HEARTH_MINIAUDIO_STUB_H */
