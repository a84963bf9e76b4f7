#!/bin/bash
# The preamble every stage of tools/ sources (never run on its own):
#   . "$(dirname "$0")/lib.sh"
# It sets:
#   repo      the checkout (this file's parent's parent)
#   AIO_DIR   the embedded cloud's state (default: .aio/ in the checkout)
#   FUNCTIONAL_T0  when the functional stage began (stage prints from it)
#   py        the embedded cloud's tools venv python (openstacksdk)
#   aio       tools/aio, or AIO_CMD when set
# and defines:
#   stage TEXT           prints "== functional [N s]: TEXT" (N: seconds
#                        since FUNCTIONAL_T0)
#   wait_until SECONDS WHAT COMMAND...
#                        runs COMMAND every 0.1 s until it succeeds; past
#                        SECONDS says "WHAT: not done within SECONDS s" and
#                        returns 1 (the stages' one polling loop; Python
#                        waits use pending_tempest_plugin.common.polling)
#   pending_aio SUB ...  python -m pending_aio SUB ... with the tools venv
#                        and the checkout on python's path, against the
#                        cloud's clouds.yaml unless OS_CLIENT_CONFIG_FILE
#                        says otherwise
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export AIO_DIR=${AIO_DIR:-$repo/.aio}
export FUNCTIONAL_T0=${FUNCTIONAL_T0:-$(date +%s)}
py="$AIO_DIR/venvs/tools/bin/python"
aio=${AIO_CMD:-"$repo/tools/aio"}

stage() {
    echo "== functional [$(( $(date +%s) - FUNCTIONAL_T0 )) s]: $*"
}
pending_aio() {
    OS_CLIENT_CONFIG_FILE=${OS_CLIENT_CONFIG_FILE:-$AIO_DIR/clouds.yaml} \
        PYTHONPATH=$repo${PYTHONPATH:+:$PYTHONPATH} "$py" -m pending_aio "$@"
}
wait_until() {
    local seconds=$1 what=$2 deadline
    shift 2
    deadline=$(( $(date +%s%N) + seconds * 1000000000 ))
    until "$@"; do
        if [ "$(date +%s%N)" -ge "$deadline" ]; then
            echo "$what: not done within $seconds s" >&2
            return 1
        fi
        sleep 0.1
    done
}
