// An async boundary: the shared singletons (react, the router, MUI…) are negotiated with
// the federation runtime before any of the shell's code that uses them runs.
import('./bootstrap');
