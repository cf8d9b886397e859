/* Signed POSTs to a local endpoint for the pure-C tests of the webhook events and interactions endpoints:
 * the platform's scheme (Ed25519 over X-Signature-Timestamp followed by the body), sent over a plain socket
 * so that the test sees exactly what the endpoint answers. */
#ifndef PLATFORMPP_TESTS_C_SIGNED_POST_H
#define PLATFORMPP_TESTS_C_SIGNED_POST_H

#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#endif
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The socket is an int here; on Windows a SOCKET, whose values fit in one (Winsock's handles are 32-bit
 * significant), so the tests keep one type. */
#ifdef _WIN32
static int signed_post_connect(const struct sockaddr_in* address) {
  static int started = 0;
  WSADATA data;
  SOCKET s;
  if (!started && WSAStartup(MAKEWORD(2, 2), &data) == 0) started = 1;
  s = socket(AF_INET, SOCK_STREAM, 0);
  if (s == INVALID_SOCKET) return -1;
  if (connect(s, (const struct sockaddr*)address, sizeof *address) != 0) {
    closesocket(s);
    return -1;
  }
  return (int)s;
}
static long signed_post_write(int fd, const char* data, size_t size) {
  return send((SOCKET)fd, data, (int)size, 0);
}
static long signed_post_recv(int fd, char* data, size_t size) {
  return recv((SOCKET)fd, data, (int)size, 0);
}
static void signed_post_close(int fd) {
  closesocket((SOCKET)fd);
}
#else
static int signed_post_connect(const struct sockaddr_in* address) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  if (connect(fd, (const struct sockaddr*)address, sizeof *address) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}
static long signed_post_write(int fd, const char* data, size_t size) {
  return (long)write(fd, data, size);
}
static long signed_post_recv(int fd, char* data, size_t size) {
  return (long)read(fd, data, size);
}
static void signed_post_close(int fd) {
  close(fd);
}
#endif

/* Signs timestamp + body with `secret_key`: 128 hex digits into `hex`. */
static void sign_hex(const unsigned char* secret_key, const char* timestamp, const char* body,
                     char hex[2 * crypto_sign_BYTES + 1]) {
  size_t ts = strlen(timestamp), bs = strlen(body);
  unsigned char* message = malloc(ts + bs);
  unsigned char signature[crypto_sign_BYTES];
  memcpy(message, timestamp, ts);
  memcpy(message + ts, body, bs);
  crypto_sign_detached(signature, NULL, message, ts + bs, secret_key);
  free(message);
  sodium_bin2hex(hex, 2 * crypto_sign_BYTES + 1, signature, sizeof signature);
}

/* Sends `body` signed now (or with `forced_signature`) to 127.0.0.1:port`path` and returns the connected
 * socket without reading: the answer may wait for the endpoint's run_callbacks. -1 on failure. */
static int signed_post_send(const unsigned char* secret_key, int port, const char* path, const char* body,
                            const char* forced_signature) {
  char timestamp[32], signature[2 * crypto_sign_BYTES + 1], request[4096];
  struct sockaddr_in address;
  int fd;
  size_t sent = 0, length;
  long n;
  snprintf(timestamp, sizeof timestamp, "%lld", (long long)time(NULL));
  sign_hex(secret_key, timestamp, body, signature);
  length = (size_t)snprintf(request, sizeof request,
                            "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                            "X-Signature-Ed25519: %s\r\nX-Signature-Timestamp: %s\r\nContent-Length: %u\r\n"
                            "Connection: close\r\n\r\n%s",
                            path, forced_signature ? forced_signature : signature, timestamp,
                            (unsigned)strlen(body), body);
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_port = htons((uint16_t)port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  fd = signed_post_connect(&address);
  if (fd < 0) return -1;
  while (sent < length && (n = signed_post_write(fd, request + sent, length - sent)) > 0)
    sent += (size_t)n;
  return fd;
}

/* Reads the whole answer (Connection: close) and closes `fd`: its status (-1 on failure), and its body into
 * `body` when `body_size` is not 0. */
static int signed_post_read(int fd, char* body, size_t body_size) {
  char answer[8192];
  size_t got = 0;
  long n;
  int status = 0;
  const char* start;
  if (fd < 0) return -1;
  while (got < sizeof answer - 1 && (n = signed_post_recv(fd, answer + got, sizeof answer - 1 - got)) > 0)
    got += (size_t)n;
  answer[got] = '\0';
  signed_post_close(fd);
  start = strstr(answer, "\r\n\r\n");
  if (body_size) snprintf(body, body_size, "%s", start ? start + 4 : "");
  if (sscanf(answer, "HTTP/1.1 %d", &status) != 1) return -1;
  return status;
}

#endif
