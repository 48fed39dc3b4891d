/* tdoku as a whole process, for timing against the whole `sudoku-batch solve` process from
 * outside (`scripts/bench.sh`), as examples/crate_once.rs does for the `sudoku` crate: reads a
 * corpus file, counts each puzzle's solutions up to LIMIT (default 2) with tdoku, prints one
 * count per line. Lines of fewer than 81 characters and lines starting with '#' are skipped;
 * blanks must be '.', as tdoku expects.
 *
 * With `--time` last, it also prints to stderr the puzzles per second of its solving loop and
 * tdoku's guesses per puzzle. That loop is timed as `sudoku-batch bench` times its own solver
 * and as tdoku's run_benchmark times every solver: the puzzles are first copied out of the file
 * into an array of 82-byte strings (tdoku's own benchmark keeps its data set so), and the clock
 * runs only around the calls of the solver, whose counts are kept in an array and printed after
 * the clock has stopped. Start, reading, splitting lines and printing are the whole process's.
 *
 * tdoku (https://github.com/t-dillon/tdoku, BSD-2) is built outside this repository, never
 * copied into it: `scripts/build_peers.sh TDOKU_DIR OUT_DIR` compiles it and this file as
 * tdoku's BENCH.sh does, with clang -O3 -march=native and with clang's profile-guided build. */
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
    fclose(f);
    /* At most one puzzle per 82 bytes of the file. */
    size_t capacity = n / 82 + 1;
    char *puzzles = malloc(capacity * 82);
    size_t *counts = malloc(capacity * sizeof *counts);
    if (!puzzles || !counts) {
        perror("tdoku_once");
        return 2;
    }
    size_t count = 0;
    for (char *line = text; line < text + n;) {
        char *end = memchr(line, '\n', text + n - line);
        if (!end) {
            end = text + n;
        }
        if (end - line >= 81 && line[0] != '#') {
            /* tdoku reads a 729-character pencilmark puzzle when input[81] is not an end. */
            memcpy(puzzles + 82 * count, line, 81);
            puzzles[82 * count + 81] = '\0';
            count++;
        }
        line = end + 1;
    }
    char solution[81];
    size_t guesses, total_guesses = 0;
    double started = now();
    for (size_t i = 0; i < count; i++) {
        guesses = 0;
        counts[i] = TdokuSolverDpllTriadSimd(puzzles + 82 * i, limit, 0, solution, &guesses);
        total_guesses += guesses;
    }
    double elapsed = now() - started;
    static char out[1 << 18];
    setvbuf(stdout, out, _IOFBF, sizeof out);
    for (size_t i = 0; i < count; i++) {
        printf("%zu\n", counts[i]);
    }
    if (fflush(stdout) != 0) {
        return 2;
    }
    if (timed && count > 0) {
        fprintf(stderr, "%.1f %.2f\n", count / elapsed, (double)total_guesses / count);
    }
    return 0;
}
