/* Connects over TCP to 127.0.0.1:argv[1]; prints "connected", or which call
   failed with which errno. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) { printf("socket errno %d\n", errno); return 0; }
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)atoi(argv[1]));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(s, (struct sockaddr *)&a, sizeof a) < 0) { printf("connect errno %d\n", errno); return 0; }
    printf("connected\n");
    close(s);
    return 0;
}
