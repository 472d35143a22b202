/* The oracle for printf_format: glibc's printf. Each stdin line is
 * "FORMAT<TAB>KIND<TAB>VALUE" (KIND: i int, l long long, u unsigned, d double as hex bits,
 * s string, p pointer); each prints FORMAT's output then a NUL. Formats are the test's own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        char *fmt = strtok(line, "\t"), *kind = strtok(NULL, "\t"), *val = strtok(NULL, "\t");
        if (!fmt || !kind) return 2;
        if (!val) val = "";
        switch (kind[0]) {
        case 'i': printf(fmt, (int)strtoll(val, NULL, 0)); break;
        case 'l': printf(fmt, strtoll(val, NULL, 0)); break;
        case 'u': printf(fmt, (unsigned long long)strtoull(val, NULL, 0)); break;
        case 'd': { unsigned long long b = strtoull(val, NULL, 16); double d; memcpy(&d, &b, 8); printf(fmt, d); break; }
        case 's': printf(fmt, val); break;
        case 'p': printf(fmt, (void *)(unsigned long)strtoull(val, NULL, 0)); break;
        default: return 2;
        }
        putchar(0);
    }
    return 0;
}
