# Sourced by the steps of .github/workflows/content.yml (and usable from cron).
#
# night_run LABEL COMMAND...: runs one felt command with --json, keeps its
# report in $FELT_REPORTS/LABEL.json, and maps felt's exit codes
# (shared/exitCodes.ts) so that one locale's failure never stops the others:
#   0  done                       → nothing
#   2  done, some items skipped   → a warning annotation; the night goes on
#   *  failed (1, or 70 for a bug) → an error annotation, and LABEL in
#      $FELT_REPORTS/failures.txt; the last step fails the run if any is there
# It always returns 0, so `bash -e` goes on to the next locale; the step's own
# decisions (deploy only what built) read night_ok.
FELT_REPORTS=${FELT_REPORTS:-reports}
mkdir -p "$FELT_REPORTS"

# felt COMMAND...: the checkout's own felt (FELT_HOME, by default the working
# folder, as in every step of the workflow). Not `npx felt`: npx resolves the
# package tree first, about 1.5 s of CPU a call (`time npx felt --version`
# against `time node bin/felt.js --version`: 1.8 s and 0.25 s with
# npm_config_offline), and a night makes a dozen calls.
felt() {
  node "${FELT_HOME:-.}/bin/felt.js" "$@"
}

night_run() {
  local label=$1
  shift
  local code=0
  "$@" --json >"$FELT_REPORTS/$label.json" || code=$?
  echo "$code" >"$FELT_REPORTS/$label.exit"
  case "$code" in
    0) ;;
    2) echo "::warning title=felt $label::done with skipped items (exit 2); see the $label report" ;;
    *)
      echo "::error title=felt $label::failed (exit $code)"
      echo "$label $code" >>"$FELT_REPORTS/failures.txt"
      ;;
  esac
  return 0
}

# night_ok LABEL: whether LABEL finished (exit 0 or 2).
night_ok() {
  local code
  code=$(cat "$FELT_REPORTS/$1.exit" 2>/dev/null || echo missing)
  [ "$code" = 0 ] || [ "$code" = 2 ]
}
