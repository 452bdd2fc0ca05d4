#!/bin/sh
# A bot for cassino's bot protocol (docs/bots.md) in POSIX shell: it plays the first legal capture
# the engine lists, else the first legal move. It reads the engine's lines one at a time, keeps what
# it needs from the legal lines, and answers each go with its move.
first=""
capture=""
while IFS= read -r line; do
    case $line in
        "cassino "*)
            printf 'id name first.sh\nready\n'
            ;;
        "legal "*)
            move=${line#legal }
            if [ -z "$first" ]; then first=$move; fi
            case $move in
                capture*) if [ -z "$capture" ]; then capture=$move; fi ;;
            esac
            ;;
        "go "*)
            printf 'move %s\n' "${capture:-$first}"
            first=""
            capture=""
            ;;
        quit)
            exit 0
            ;;
    esac
done
