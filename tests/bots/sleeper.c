/* Never answers and never reads its input: sleeps forever. */
#include <unistd.h>
int main(void) {
    for (;;) pause();
}
