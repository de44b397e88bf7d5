#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <readline/readline.h>
#include <readline/history.h>

/* Accessors for readline's global variables: Swift 6 refuses direct use of imported mutable
   globals, and the REPL touches them only from its editor thread. */

/* Settings of the REPL: no signal handling by readline, its name, word breaks, TAB hook. */
static inline void corsano_rl_configure(rl_completion_func_t *complete) {
    rl_readline_name = "corsano";
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_completer_word_break_characters = " \t\n=";
    rl_attempted_completion_function = complete;
}

/* The line being edited (never NULL). */
static inline const char *corsano_rl_line_buffer(void) {
    return rl_line_buffer ? rl_line_buffer : "";
}

/* 1: no space after the completed word (a directory, whose files come next). */
static inline void corsano_rl_suppress_append(int suppress) {
    rl_completion_suppress_append = suppress;
}

/* 1: readline must not fall back to file-name completion. */
static inline void corsano_rl_set_completion_over(int over) {
    rl_attempted_completion_over = over;
}

/* 1 when `line` equals the newest history entry. */
static inline int corsano_history_last_is(const char *line) {
    HIST_ENTRY *last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
    return last && last->line && strcmp(last->line, line) == 0;
}

/* The history list put aside while the other one is in use: the REPL keeps its commands and the
   readings typed at cuff> apart, so Up at one prompt never recalls the other's lines. */
static HISTORY_STATE *corsano_history_aside = NULL;

/* Swaps the history in use with the one put aside (an empty list the first time). */
static inline void corsano_history_swap(void) {
    HISTORY_STATE *current = history_get_history_state();
    if (corsano_history_aside) {
        history_set_history_state(corsano_history_aside);
        free(corsano_history_aside);
    } else {
        HISTORY_STATE empty;
        memset(&empty, 0, sizeof empty);
        history_set_history_state(&empty);
    }
    corsano_history_aside = current;
    using_history();
}

/* Sends readline's own output (prompt, echo) to standard error: when standard output is not a
   terminal it carries only JSON lines. */
static inline void corsano_rl_output_to_stderr(void) {
    rl_outstream = stderr;
}
