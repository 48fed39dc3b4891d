/* tdoku as a whole process, for timing against the whole `sudoku-batch solve` process from
 * outside (`scripts/bench.sh`), as examples/crate_once.rs does for the `sudoku` crate: reads a
 * corpus file, counts each puzzle's solutions up to LIMIT (default 2) with tdoku, prints one
 * count per line. Lines of fewer than 81 characters and lines starting with '#' are skipped;
 * blanks must be '.', as tdoku expects. With `--time` last, it also prints to stderr the
 * puzzles per second of its solving loop (tdoku's parsing and the printing of the counts
 * included; process start and reading excluded) and tdoku's guesses per puzzle.
 *
 * tdoku (https://github.com/t-dillon/tdoku, BSD-2) is built outside this repository, never
 * copied into it. Beside this repository, with cmake:
 *
 *   git clone https://github.com/t-dillon/tdoku ../tdoku
 *   cmake -S ../tdoku -B ../tdoku/build -DCMAKE_BUILD_TYPE=Release -DARCH=native
 *   make -C ../tdoku/build tdoku_static
 *
 * or without cmake, compiling the two sources of its `tdoku_static` target:
 *
 *   mkdir -p ../tdoku/build
 *   for f in solver_dpll_triad_simd util; do g++ -std=c++14 -O3 -march=native -fno-exceptions \
 *       -fno-rtti -fpic -c ../tdoku/src/$f.cc -o ../tdoku/build/$f.o; done
 *   ar rcs ../tdoku/build/libtdoku_static.a ../tdoku/build/solver_dpll_triad_simd.o \
 *       ../tdoku/build/util.o
 *
 * then:
 *
 *   gcc -O3 -march=native -o ../tdoku_once scripts/tdoku_once.c ../tdoku/build/libtdoku_static.a \
 *       -static-libgcc -Wl,-Bstatic -lstdc++ -Wl,-Bdynamic -lm
 *
 * The C++ runtime is linked statically so that the process loads the C library only. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* tdoku's entry point (include/tdoku.h). */
size_t TdokuSolverDpllTriadSimd(const char *input, size_t limit, uint32_t configuration,
                                char *solution, size_t *num_guesses);

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    int timed = argc > 2 && strcmp(argv[argc - 1], "--time") == 0;
    if (timed) {
        argc--;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: tdoku_once FILE [LIMIT] [--time]\n");
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
    size_t guesses, total_guesses = 0, puzzles = 0;
    double started = now();
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
            guesses = 0;
            printf("%zu\n", TdokuSolverDpllTriadSimd(puzzle, limit, 0, solution, &guesses));
            total_guesses += guesses;
            puzzles++;
        }
        line = end + 1;
    }
    double elapsed = now() - started;
    if (fflush(stdout) != 0) {
        return 2;
    }
    if (timed && puzzles > 0) {
        fprintf(stderr, "%.1f %.2f\n", puzzles / elapsed, (double)total_guesses / puzzles);
    }
    return 0;
}
