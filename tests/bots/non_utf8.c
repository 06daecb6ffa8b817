/* Prints bytes that are not UTF-8, with LF, CR LF and CR line ends. */
#include <unistd.h>
int main(void) {
    static const char out[] = "\xff\xfe\r\nok\xc3\x28\rlast \x80\n";
    if (write(1, out, sizeof out - 1) < 0) return 1;
    return 0;
}
