/* tdoku as a whole process, for timing against the whole `sudoku-batch solve` process from
 * outside (`scripts/versus_crate.sh -t`), as examples/crate_once.rs does for the `sudoku` crate:
 * reads a corpus file, counts each puzzle's solutions up to LIMIT (default 2) with tdoku, prints
 * one count per line. Lines of fewer than 81 characters and lines starting with '#' are skipped;
 * blanks must be '.', as tdoku expects.
 *
 * tdoku (https://github.com/t-dillon/tdoku, BSD-2) is built outside this repository, never
 * copied into it; for example, beside it:
 *
 *   git clone https://github.com/t-dillon/tdoku ../tdoku
 *   cmake -S ../tdoku -B ../tdoku/build -DCMAKE_BUILD_TYPE=Release -DARCH=native
 *   make -C ../tdoku/build tdoku_static
 *   gcc -O3 -march=native -o ../tdoku_once scripts/tdoku_once.c ../tdoku/build/libtdoku_static.a \
 *       -static-libgcc -Wl,-Bstatic -lstdc++ -Wl,-Bdynamic -lm
 *
 * The C++ runtime is linked statically so that the process loads the C library only, as a
 * `sudoku-batch` linked dynamically does (build.rs links it statically where it can; adding
 * `-static-pie` here does the same for this process). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tdoku's entry point (include/tdoku.h). */
size_t TdokuSolverDpllTriadSimd(const char *input, size_t limit, uint32_t configuration,
                                char *solution, size_t *num_guesses);

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: tdoku_once FILE [LIMIT]\n");
        return 2;
    }
    size_t limit = argc > 2 ? strtoull(argv[2], NULL, 10) : 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc(n + 1);
    if (!text || fread(text, 1, n, f) != (size_t)n) {
        perror(argv[1]);
        return 2;
    }
    static char out[1 << 18];
    setvbuf(stdout, out, _IOFBF, sizeof out);
    char solution[81];
    size_t guesses;
    for (char *line = text; line < text + n;) {
        char *end = memchr(line, '\n', text + n - line);
        if (!end) {
            end = text + n;
        }
        if (end - line >= 81 && line[0] != '#') {
            /* tdoku reads a 729-character pencilmark puzzle when input[81] is not an end. */
            char puzzle[82];
            memcpy(puzzle, line, 81);
            puzzle[81] = '\0';
            printf("%zu\n", TdokuSolverDpllTriadSimd(puzzle, limit, 0, solution, &guesses));
        }
        line = end + 1;
    }
    return 0;
}
