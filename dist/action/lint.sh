#!/usr/bin/env bash
# Runs pvlint for action.yml: SARIF into PVLINT_SARIF_FILE, then (PVLINT_ANNOTATIONS=true) the
# findings again as workflow annotations. It never fails the step itself: it writes pvlint's
# exit status to the step's outputs, so the SARIF is uploaded before the action's last step
# fails the job.
#
# Environment: PVLINT_PATHS (space- or newline-separated; `-` is standard input, read from
# PVLINT_INPUT_FILE), PVLINT_FAIL_ON, PVLINT_ARGS (split on spaces), PVLINT_SARIF_FILE,
# PVLINT_ANNOTATIONS; GITHUB_OUTPUT. pvlint must be on PATH (PVLINT_BIN names another).
set -uo pipefail

pvlint=${PVLINT_BIN:-pvlint}
output=${GITHUB_OUTPUT:-/dev/null}
read -r -a paths <<< "$(printf '%s' "${PVLINT_PATHS:-.}" | tr '\n' ' ')"
read -r -a extra <<< "${PVLINT_ARGS:-}"
[ "${#paths[@]}" -gt 0 ] || paths=(.)
sarif=${PVLINT_SARIF_FILE:-pvlint.sarif}

stdin=/dev/null
for p in "${paths[@]}"; do
  if [ "$p" = - ]; then
    if [ -z "${PVLINT_INPUT_FILE:-}" ]; then
      echo "::error title=pvlint::paths has '-' (standard input) but input-file is empty"
      echo "exit-code=2" >> "$output"
      exit 0
    fi
    stdin=$PVLINT_INPUT_FILE
  fi
done

mkdir -p "$(dirname "$sarif")"
"$pvlint" lint --format sarif --fail-on "${PVLINT_FAIL_ON:-error}" --color never \
  ${extra[@]+"${extra[@]}"} "${paths[@]}" < "$stdin" > "$sarif"
code=$?
echo "exit-code=$code" >> "$output"
if [ "$code" -le 1 ] && [ -s "$sarif" ]; then
  echo "sarif-written=true" >> "$output"
  echo "pvlint: SARIF report in $sarif (exit status $code)"
else
  echo "sarif-written=false" >> "$output"
  echo "pvlint exited $code and wrote no report"
  exit 0
fi

if [ "${PVLINT_ANNOTATIONS:-true}" = true ]; then
  # The same findings as ::error/::warning lines, which GitHub shows on the changed files.
  "$pvlint" lint --format github --fail-on never --color never \
    ${extra[@]+"${extra[@]}"} "${paths[@]}" < "$stdin" || true
fi
exit 0
