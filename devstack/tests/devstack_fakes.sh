#!/bin/bash
# Stand-ins for the devstack functions devstack/settings and plugin.sh use,
# for the harness of test_devstack_plugin.py.  Each behaves as devstack's
# (functions-common, inc/ini-config) does for what the plugin asks of it;
# none needs root, a network or a cloud.

# trueorfalse DEFAULT VARNAME: "True", "False" or DEFAULT when unrecognised.
function trueorfalse {
    local default=$1
    [[ -n "$2" ]] || die $LINENO "variable to normalize required"
    case "${!2:-}" in
        1|[yY]es|YES|[tT]rue|TRUE) echo True ;;
        0|[nN]o|NO|[fF]alse|FALSE) echo False ;;
        *) echo "$default" ;;
    esac
}

# die LINENO MESSAGE...: the message on stderr, then exit non-zero.
function die {
    local line=$1
    shift
    echo "die[$line]: $*" >&2
    exit 1
}

# is_service_enabled SERVICE...: any of them in ENABLED_SERVICES; "nova"
# stands for any n-* service, as in devstack.
function is_service_enabled {
    local service
    for service in "$@"; do
        [[ ,${ENABLED_SERVICES}, == *,${service},* ]] && return 0
        [[ $service == nova && ,${ENABLED_SERVICES} == *,n-* ]] && return 0
    done
    return 1
}

# iniget FILE SECTION OPTION: the option's value, blanks around it dropped.
function iniget {
    [[ -f "$1" ]] || return 0
    awk -v sec="$2" -v opt="$3" '
        /^\[.*\]/ { insec = ($0 == "[" sec "]"); next }
        insec && $0 ~ "^" opt "[ \t]*=" {
            sub(/^[^=]*=[ \t]*/, ""); sub(/[ \t]+$/, ""); print; exit
        }' "$1"
}

# iniset FILE SECTION OPTION VALUE: replace the option in its section, or
# add it right below the section header (the section is appended to the
# file when missing, after an empty line).  Like devstack's, the value goes
# through an unquoted echo: runs of blanks collapse to one space.
function iniset {
    local file=$1 section=$2 option=$3 value
    # shellcheck disable=SC2086
    value=$(echo $4)
    [[ -n "$section" && -n "$option" ]] || return 0
    if ! grep -q "^\[$section\]" "$file" 2>/dev/null; then
        printf '\n[%s]\n' "$section" >> "$file"
    fi
    local tmp
    tmp=$(mktemp)
    # A new option goes right below the header, as devstack puts it there.
    if ! grep -q "^$option[ \t]*=" <(iniget_section "$file" "$section"); then
        awk -v sec="$section" -v line="$option = $value" '
            { print }
            $0 == "[" sec "]" && !added { print line; added = 1 }' \
            "$file" > "$tmp"
    else
        awk -v sec="$section" -v opt="$option" -v val="$value" '
            /^\[.*\]/ { insec = ($0 == "[" sec "]"); print; next }
            insec && $0 ~ "^" opt "[ \t]*=" { print opt " = " val; next }
            { print }' "$file" > "$tmp"
    fi
    cat "$tmp" > "$file"
    rm -f "$tmp"
}

# The lines of one section of FILE (helper of iniset).
function iniget_section {
    awk -v sec="$2" '
        /^\[.*\]/ { insec = ($0 == "[" sec "]"); next }
        insec { print }' "$1"
}

# inidelete FILE SECTION OPTION: remove the option from its section.
function inidelete {
    [[ -f "$1" ]] || return 0
    local tmp
    tmp=$(mktemp)
    awk -v sec="$2" -v opt="$3" '
        /^\[.*\]/ { insec = ($0 == "[" sec "]"); print; next }
        insec && $0 ~ "^" opt "[ \t]*=" { next }
        { print }' "$1" > "$tmp"
    cat "$tmp" > "$1"
    rm -f "$tmp"
}

# git_clone REMOTE DEST REF: clone when DEST is missing (no network here:
# REMOTE is a local repository).
function git_clone {
    [[ -d "$2" ]] && return 0
    git clone --quiet --branch "$3" "$1" "$2"
}

# get_notification_url: devstack's (lib/rpc_backend) notification transport
# URL of its RabbitMQ.
function get_notification_url {
    echo "rabbit://stackrabbit:${RABBIT_PASSWORD:-secret}@127.0.0.1:5672/"
}
