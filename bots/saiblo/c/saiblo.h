/* Saiblo AI SDK for C (seed 002), for arbiter's Saiblo logic and any logic that uses the
 * public templates' convention.
 *
 * From the judger: the logic's bodies, unchanged; arbiter's logic (like the public templates)
 * prefixes each with its length as 8 zero-padded decimal digits ("00000009PLACE 3 4\n").
 * To the judger: one frame per answer, a 4-byte big-endian length then the bytes.
 *
 * Message level: saiblo_receive / saiblo_send.
 * Line level (arbiter's line protocols over Saiblo): saiblo_read_line returns the received
 * messages' lines one by one; saiblo_write_line keeps "DEBUG ..." lines and sends them with the
 * next answer line as one frame. saiblo_plain_lines(1) switches both to plain stdin/stdout
 * lines, so one bot also runs under arbiter's in-process referee. */
#ifndef SAIBLO_H
#define SAIBLO_H

#include <stddef.h>

/* Reads one message into a malloc'd, NUL-terminated buffer (*len bytes).
 * Returns 1, 0 at end of input, -1 on a malformed length or a truncated body. */
int saiblo_receive(char **body, size_t *len);

/* Sends one message as a 4 + n frame. Returns 0, or -1 if the write failed. */
int saiblo_send(const char *data, size_t len);

/* Line level. The returned line is valid until the next call; NULL at end of input. */
void saiblo_plain_lines(int on);
const char *saiblo_read_line(void);
void saiblo_write_line(const char *line);

#endif
