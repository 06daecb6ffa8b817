/* Tries to create argv[1] and argv[2]; prints "<path> ok" or "<path> errno N". */
#include <errno.h>
#include <stdio.h>
int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "w");
        if (f && fputs("written by a bot\n", f) >= 0 && fclose(f) == 0)
            printf("%s ok\n", argv[i]);
        else
            printf("%s errno %d\n", argv[i], errno);
    }
    return 0;
}
