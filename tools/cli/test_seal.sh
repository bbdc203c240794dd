#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_seal.sh FAIRDIE FAIRDIE_FAKE SEAL_GEN VECTORS FAIRDIE_WHOLE - draws
# anyone can check: keygen, seal, reveal, verify and receipts, on the host.
# FAIRDIE_WHOLE is the tool whose verify reads every line whole with
# jansson.
#
# The test vectors replayed through --random-source; round trips of every
# kind of request from every source; a byte changed in each member of each
# kind of record, a record deleted, two swapped, one added without the key,
# records signed with a wrong outcome; concurrent appends; a torn last
# line; every refusal; verify's verdicts on signed logs changed at random,
# the same as when jansson reads every line whole. Ends with "N passed, N
# failed".
set -u

abs() {
	case $1 in
	/*) echo "$1" ;;
	*) echo "$PWD/$1" ;;
	esac
}

bin=$(abs "$1")
fake=$(abs "$2")
gen=$(abs "$3")
vectors=$(abs "$4")
whole=$(abs "$5")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/testlib.sh"

cd "$tmp" || exit 1

# --- the test vectors: the stream replayed through --random-source --------
# Each vector's stream prefix, as a file of bits, gives the outcome the
# vector names when the request is run on it: the sealed draw runs the same
# engine as every command, fed as --random-source feeds it.
awk -v RS= '{ print > ("vec" NR) }' "$vectors"
nvec=0
for v in vec*; do
	nvec=$((nvec + 1))
	req=$(sed -n 's/^request: //p' "$v")
	sed -n 's/^stream: //p' "$v" |
		perl -ne 'chomp; print pack("H*", $_)' >"$v.bits"
	sed -n 's/^outcome: //p' "$v" >"$v.want"
	# The FILE operand, last in the request, holds the input lines.
	if grep -q '^input: ' "$v"; then
		file=${req##* }
		sed -n 's/^input: //p' "$v" >"$file"
	fi
	# shellcheck disable=SC2086
	t 0 "vector $req on --random-source" "$bin" \
		--random-source="$v.bits" $req &&
		same "$(cat "$tmp/out")" "$(cat "$v.want")" "vector $req: outcome"
done
same "$nvec" 9 "vectors in $vectors"

# An implementation of the commitment and the stream in another language
# (Python's hashlib and a ChaCha20 written from RFC 7539's description)
# agrees with every vector.
if command -v python3 >/dev/null; then
	t 0 "seal_ref.py" python3 "$here/seal_ref.py" "$vectors" &&
		has "$tmp/out" "9 vectors agree" "seal_ref.py"
fi

# --- keys -----------------------------------------------------------------
t 0 "keygen" "$bin" --seed=1 keygen key &&
	same "$(stat -c %a key)" 600 "keygen: the private key's mode" &&
	same "$(cat "$tmp/out")" "$(cut -d' ' -f2 key.pub)" "keygen: prints the public key" &&
	has key.pub "fairdie-ed25519-public-v1 " "keygen: KEY.pub"
cp key key.before
t 1 "keygen over a key" "$bin" --seed=2 keygen key &&
	has "$tmp/err" "it is never overwritten" "keygen: never overwrites" &&
	cmp -s key key.before && pass
t 0 "keygen other" "$bin" --source=getrandom keygen other
t 2 "keygen no file" "$bin" --seed=1 keygen

# --- round trips: every request, every source ------------------------------
printf 'alpha\nbeta\ngamma delta\n' >lines
printf '5 red\n3 blue\n0 never\n2 green ball\n' >prizes
n=0
for src in --seed=11 --source=getrandom --device=fake:3; do
	tool=$bin
	[ "$src" = --device=fake:3 ] && tool=$fake
	for req in "sample 6 49" "shuffle 12" "shuffle lines" "roll 3d6 -n 3" \
		"roll 4d6k3 d20+4" "roll --weights 1,2,3 -n 4" "pick prizes" \
		"pick -n 5 prizes" "sample 2 18446744073709551615"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		t 0 "seal $req ($src)" "$tool" $src seal --log log --key key \
			--secret "s$n" --public "drand quicknet round $n" $req &&
			has "$tmp/out" "commitment: " "seal $req: prints the commitment" &&
			same "$(stat -c %a "s$n")" 600 "seal: the secret's mode"
		t 0 "reveal $req ($src)" "$bin" reveal --log log --key key \
			--secret "s$n" --public-value "$n$n$n" &&
			[ -s "$tmp/out" ] && pass
		cp "$tmp/out" "out$n"
		# The outcome in the log is the one printed.
		tail -n 1 log | perl -ne '/"outcome":"(.*?)","sig"/ and print $1' \
			>"logged$n"
		same "$(cat "logged$n")" "$(perl -pe 's/\n/\\n/' "out$n")" \
			"reveal $req: the outcome logged"
	done
done
t 0 "verify the round trips" "$bin" verify --key key.pub log &&
	has "$tmp/out" "54 records hold: 27 draws revealed" "verify: counts"
t 0 "verify with all signatures" "$bin" verify --all-signatures log
t 0 "verify without --key" "$bin" verify log &&
	has "$tmp/out" "the log's own key" "verify: says whose key"
# sealed with none: no public value
t 0 "seal none" "$bin" --seed=5 seal --log log --key key --secret sn \
	--public none sample 6 49
t 0 "reveal none" "$bin" reveal --log log --key key --secret sn
t 0 "verify none" "$bin" verify --key key.pub log
# A record longer than the 64 KiB verify reads lines in, and an outcome
# longer than what the capture keeps: both read and replayed as any other.
seq 1 20000 >big
t 0 "seal a long FILE" "$bin" --seed=6 seal --log blog --key key --secret sb \
	--public none shuffle big
t 0 "reveal a long FILE" "$bin" reveal --log blog --key key --secret sb &&
	same "$(sort -n "$tmp/out" | cmp -s - big && echo same)" same \
		"reveal a long FILE: a shuffle of it"
t 0 "verify a long FILE" "$bin" verify --key key.pub blog &&
	has "$tmp/out" "2 records hold: 1 draws revealed" "verify a long FILE: counts"
# The sanitizers' build: no block of the spilled trees lost or freed twice.
t 0 "verify a long FILE (sanitizers)" "$fake" verify --key key.pub blog
perl -pe 'eof and s/("outcome":")(\d)/$1 . ($2 eq "1" ? "2" : "1")/e' \
	blog >blog2
t 1 "verify a long FILE changed" "$bin" verify --key key.pub blog2 &&
	has "$tmp/err" "record 2: signature" "verify a long FILE changed: named"

# --- receipts ---------------------------------------------------------------
t 0 "receipt roll" "$bin" --seed=3 roll 2d6 -n 3 --log rlog --key key &&
	same "$(wc -l <"$tmp/out")" 3 "receipt roll: the outcome printed"
t 0 "receipt shuffle" "$bin" --log rlog --key key --source=getrandom shuffle 7
t 0 "receipt sample" "$bin" --seed=4 sample 3 10 --log=rlog --key=key
t 0 "receipt pick" "$bin" --seed=4 pick -n 2 prizes --log rlog --key key
t 0 "receipt craps" "$bin" --seed=4 craps -n 20 --log rlog --key key
t 0 "receipt device" "$fake" --device=fake:9 roll d20 --log rlog --key key &&
	tail -n 1 rlog >"$tmp/last" &&
	has "$tmp/last" '"source":"device","device":{"health":' "receipt: module state" &&
	has "$tmp/last" '"source_bits":' "receipt: source_bits" &&
	has "$tmp/last" '"vm_forks":' "receipt: vm_forks" &&
	has "$tmp/last" '"tool_version":"' "receipt: tool version" &&
	has "$tmp/last" '"module_version":' "receipt: module version"
t 0 "verify receipts" "$bin" verify --key key.pub rlog &&
	has "$tmp/out" "6 records hold" "verify receipts: counts"
t 2 "receipt on roulette" "$bin" --seed=1 roulette --log rlog --key key &&
	has "$tmp/err" "--log does not apply" "receipt: roulette refuses" &&
	one_line "receipt: roulette"
t 0 "receipt --json" "$bin" --seed=1 roll 3d6 --json --log rlog --key key &&
	has "$tmp/out" '{"schema": "fairdie.roll/1", "rolls": [{"expr": "3d6"' \
		"receipt --json: printed" &&
	tail -n 1 rlog >"$tmp/last" &&
	has "$tmp/last" '"outcome":"{\"schema\": \"fairdie.roll/1\", \"rolls\": [{\"expr\": \"3d6\"' \
		"receipt --json: logged"
t 2 "receipt with -o" "$bin" --seed=1 shuffle -o out.txt 5 --log rlog --key key &&
	has "$tmp/err" "--log and -o do not go together" "receipt -o: refused"
t 2 "receipt without key" "$bin" --seed=1 roll d6 --log rlog &&
	has "$tmp/err" "--log needs --key" "receipt: no key" &&
	[ ! -s "$tmp/out" ] && pass

# --- tampering: one byte in each member of each kind of record -------------
# A mixed log: sealed (with a FILE), revealed, receipt, sealed not revealed.
"$bin" --seed=21 seal --log mix --key key --secret m1 --public "drand round 7" \
	pick -n 2 prizes >/dev/null 2>&1
"$bin" reveal --log mix --key key --secret m1 --public-value abc >/dev/null 2>&1
"$bin" --seed=22 roll 3d6 --log mix --key key >/dev/null 2>&1
"$bin" --seed=23 seal --log mix --key key --secret m2 --public none \
	shuffle 9 >/dev/null 2>&1
t 0 "the mixed log" "$bin" verify --key key.pub mix
# Each value of each member, one character changed to another of its kind,
# so that the line stays JSON: every change is named for its record.
perl -e '
	my $i = 0;
	open(my $f, "<", "mix") or die;
	my @l = <$f>;
	for my $n (0 .. $#l) {
		my $line = $l[$n];
		while ($line =~ /"([a-z_]+)":("(?:[^"\\]|\\.)*"|[0-9]+|null|\[[^\]]*\])/g) {
			my ($key, $end, $len) = ($1, pos($line), length($2));
			my $v = $2;
			my $at = $end - $len + ($v =~ /^\[/ ? 2 :
						$len > 2 ? 1 : 0);
			my $c = substr($line, $at, 1);
			my $d = $c =~ /[0-9]/ ? ($c + 1) % 10 :
				$c =~ /[a-z]/ ? ($c eq "z" ? "y" : chr(ord($c) + 1)) :
				$c =~ /[A-Z]/ ? "Q" : "x";
			my @m = @l;
			substr($m[$n], $at, 1) = $d;
			$i++;
			open(my $o, ">", "tamper$i") or die;
			print $o @m;
			print STDOUT "$i " . ($n + 1) . " $key\n";
		}
	}' >tampers
ntamper=0
while read -r i rec key; do
	ntamper=$((ntamper + 1))
	t 1 "tamper record $rec $key" "$bin" verify --key key.pub "tamper$i" &&
		has "$tmp/err" "record $rec: signature" "tamper record $rec $key: named" &&
		one_line "tamper record $rec $key"
done <tampers
if [ "$ntamper" -ge 30 ]; then pass; else fail "only $ntamper tampers made"; fi

# A record deleted, two swapped, one added by someone without the key.
sed 2d mix >deleted
t 1 "a record deleted" "$bin" verify --key key.pub deleted &&
	has "$tmp/err" "record 2: chain" "deleted: named"
awk 'NR == 2 { hold = $0; next } { print } NR == 3 { print hold }' mix >swapped
t 1 "two records swapped" "$bin" verify --key key.pub swapped &&
	has "$tmp/err" "record 2: chain" "swapped: named"
"$bin" --seed=30 roll d6 --log olog --key other >/dev/null 2>&1
cp mix added
# Chained in place, but signed with another key.
perl -e '
	use Digest::SHA qw(sha256_hex);
	open(my $f, "<", "mix"); my @l = <$f>; my $last = $l[-1]; chomp $last;
	open(my $o, "<", "olog"); my $r = <$o>;
	my $h = sha256_hex($last); my $n = @l + 1;
	$r =~ s/"seq":1,"prev":"[0-9a-f]+"/"seq":$n,"prev":"$h"/;
	$r =~ s/,"key":"[0-9a-f]+"//;
	print $r;' >>added
t 1 "a record added without the key" "$bin" verify --key key.pub added &&
	has "$tmp/err" "record 5: signature" "added: named"
t 1 "appending after a record without the key" "$bin" --seed=1 roll d6 \
	--log added --key key &&
	has "$tmp/err" "the last record is not signed by this key" "added: append refused"
cat mix olog >foreign
t 1 "another log's record" "$bin" verify --key key.pub foreign &&
	has "$tmp/err" "record 5: signature" "foreign: named"
t 1 "the wrong public key" "$bin" verify --key other.pub mix &&
	has "$tmp/err" "record 1: signature" "wrong key: named"

# Records the key's holder signed with a wrong outcome, secret or value.
for bad in outcome commitment public; do
	"$bin" --seed=1 keygen "k$bad" >/dev/null
	"$gen" "g$bad" "k$bad" 3 "$bad" || fail "seal-gen $bad"
	t 1 "signed wrong $bad" "$bin" verify --key "k$bad.pub" "g$bad"
	case $bad in
	outcome) has "$tmp/err" "record 6: outcome" "wrong outcome: named" ;;
	commitment) has "$tmp/err" "record 6: commitment" "wrong secret: named" ;;
	public) has "$tmp/err" "record 6: public value" "wrong value: named" ;;
	esac
done
# Signed lines that begin as the chain asks but are no record (its "seq"
# twice; nothing after the chain's members), refused as jansson refuses the
# whole line; and a record in another layout, read whole by jansson.
for odd in duplicate comma spaced; do
	"$bin" --seed=1 keygen "k$odd" >/dev/null
	"$gen" "g$odd" "k$odd" 3 "$odd" || fail "seal-gen $odd"
	if [ "$odd" = spaced ]; then
		t 0 "a record with blanks" "$bin" verify --key "k$odd.pub" "g$odd" &&
			has "$tmp/out" "6 records hold: 3 draws revealed" "blanks: counts"
	else
		t 1 "a record with $odd" "$bin" verify --key "k$odd.pub" "g$odd" &&
			has "$tmp/err" "record 6: record: not a fairdie record" \
				"$odd: named" && one_line "$odd"
	fi
done

# --- what verify says does not depend on how it reads a line -----------------
# verify reads the records of a sealed draw in the layout the tool writes
# them, comparing what it can and giving jansson the rest; any other line is
# read whole. Logs changed at random (a byte changed, inserted or removed, a
# member added, an outcome escaped otherwise) and signed again, so that
# what is refused is refused for the change and not for its signature:
# verify, and verify reading every line whole, say the same, byte for byte.
cp mix base
"$gen" base key 3 || fail "seal-gen base"
same_verdict() {
	"$fake" verify --key key.pub "$1" >"$1.out" 2>"$1.err"
	echo "exit $?" >>"$1.out"
	"$whole" verify --key key.pub "$1" >"$1.wout" 2>"$1.werr"
	echo "exit $?" >>"$1.wout"
	cmp -s "$1.out" "$1.wout" && cmp -s "$1.err" "$1.werr"
}
# refused LOG WANT WHAT: LOG, changed by hand, signed again: verify says
# WANT of it, and says the same reading every line whole.
refused() {
	"$gen" --resign "$1" "$1.signed" key || fail "seal-gen --resign $1"
	same_verdict "$1.signed" ||
		fail "$3: read whole, verify says otherwise: $(cat "$1.signed.err")"
	has "$1.signed.err" "$2" "$3"
}
"$gen" --resign base base.signed key || fail "seal-gen --resign"
if same_verdict base.signed && cmp -s base base.signed &&
	grep -q "exit 0" base.signed.out; then pass; else
	fail "the log signed again: $(cat base.signed.err)"
fi
# The outcome escaped as jansson would not (\u000a for a newline): it holds,
# read whole.
perl -pe 's/("outcome":"[^"]*)\\n/$1\\u000a/ if /"type":"revealed"/' base \
	>escaped
"$gen" --resign escaped escaped.signed key || fail "seal-gen --resign"
if same_verdict escaped.signed && grep -q "exit 0" escaped.signed.out &&
	! cmp -s base escaped.signed; then pass; else
	fail "an outcome escaped otherwise: $(cat escaped.signed.err)"
fi
# A member written where the others are: named twice (refused), or one
# that record does not name (read and left alone).
for rec in 9 10; do
	for name in fairdie seq prev type sig secret outcome commitment; do
		perl -pe "s/(\"type\":\"[a-z]*\",)/\$1\"$name\":\"0\",/ if \$. == $rec" \
			base >"named$rec$name"
		"$gen" --resign "named$rec$name" "named$rec$name.signed" key ||
			fail "seal-gen --resign"
		case $rec$name in
		9secret | 9outcome | 10commitment) want="exit 0" ;;
		*) want="record $rec: record: not a fairdie record" ;;
		esac
		if same_verdict "named$rec$name.signed" &&
			grep -q "$want" "named$rec$name.signed.out" \
				"named$rec$name.signed.err"; then pass; else
			fail "\"$name\" added to record $rec: $(cat "named$rec$name.signed.err")"
		fi
	done
done
# An outcome with one more character, or one fewer.
for change in 's/\\n"(,"sig")/\\n7"$1/' 's/.(\\n"(,"sig"))/$1/'; do
	perl -pe "$change if \$. == 10" base >outcome
	refused outcome "record 10: outcome: the request drawn again" \
		"outcome changed: $change"
done
# A sealed request no draw takes (K above N), its commitment made for it:
# the reveal fails for its outcome, and the draw says why once.
perl -MDigest::SHA=sha256_hex -e '
	sub f { pack("Q>", length($_[0])) . $_[0] }
	my @l = <STDIN>;
	my ($s) = $l[-1] =~ /"secret":"([0-9a-f]{64})"/ or die;
	my @a = ("sample", "50", "49");
	my $c = sha256_hex(f("fairdie commit v1") . f(pack("H*", $s)) .
			   f("none") . pack("Q>", scalar @a) .
			   join("", map { f($_) } @a) . pack("Q>", 0));
	$l[-2] =~ s/"sample","6"/"sample","50"/ or die;
	$l[-2] =~ s/"commitment":"[0-9a-f]{64}"/"commitment":"$c"/ or die;
	print @l;' <base >undrawable || fail "a request no draw takes: perl"
refused undrawable \
	"record $(wc -l <base): outcome: the request cannot be drawn again" \
	"a request no draw takes"
if [ "$(wc -l <undrawable.signed.err)" -eq 2 ]; then pass; else
	fail "a request no draw takes: not two lines: $(cat undrawable.signed.err)"
fi
# An outcome the writer escapes otherwise (a tab) or not at all (UTF-8)
# holds, read whole; one written with a raw tab, which JSON does not take,
# is refused.
printf 'a\tb\nc\n' >tab.items
printf 'caf\303\251\nc\n' >utf8.items
for odd in tab utf8; do
	"$bin" --seed=31 seal --log "$odd" --key key --secret "$odd.secret" \
		--public none shuffle "$odd.items" >/dev/null 2>&1
	"$bin" reveal --log "$odd" --key key --secret "$odd.secret" \
		>/dev/null 2>&1
	"$gen" --resign "$odd" "$odd.signed" key || fail "seal-gen --resign"
	if same_verdict "$odd.signed" && grep -q "exit 0" "$odd.signed.out"; then
		pass
	else
		fail "an outcome with $odd: $(cat "$odd.signed.err")"
	fi
done
grep -q '"outcome":"[^"]*\\t' tab.signed || fail "no tab in the outcome"
perl -pe 's/\\t/\t/ if $. == 2' tab >rawtab
refused rawtab "record 2: record: not a fairdie record" "a raw tab"
# A NUL byte in a reveal's time or outcome, signed (all of the line):
# refused as JSON, both ways.
for at in '"time":"2' '"outcome":"[0-9]*'; do
	perl -pe "s/($at)/\$1\0/ if \$. == 10" base >nul
	refused nul "record 10: record: not a fairdie record" \
		"a NUL byte after $at"
done
perl -e '
	srand(29);
	my @ins = ("\"", "\\", ",", "}", "{", ":", " ", "0", "a", "\\u0000",
		   "\\/", ",\"type\":\"sealed\"", ",\"secret\":\"" . "a" x 64 . "\"",
		   ",\"outcome\":\"1\\n\"", ",\"commitment\":\"" . "b" x 64 . "\"",
		   ",\"sig\":\"0\"", ",\"seq\":1", ",\"x\":1", "\"revealed\",");
	my @rep = ("A", "0", "9", "f", "g", "\"", " ", "\\", ",");
	open(my $f, "<", "base") or die;
	my @l = <$f>;
	for my $i (1 .. 200) {
		my @m = @l;
		my $n = int(rand(@m));
		my $body = length($m[$n]) - 1 - 138;
		my $at = rand() < 0.5 ? $body - 1 - int(rand(120)) :
			 1 + int(rand($body - 1));
		$at = 1 if $at < 1;
		my $op = rand();
		if ($op < 0.4) {
			substr($m[$n], $at, 0) = $ins[int(rand(@ins))];
		} elsif ($op < 0.8) {
			substr($m[$n], $at, 1) = $rep[int(rand(@rep))];
		} else {
			substr($m[$n], $at, 1) = "";
		}
		open(my $o, ">", "mut$i") or die;
		print $o @m;
	}'
nmut=0
nheld=0
for m in mut*; do
	"$gen" --resign "$m" "$m.signed" key || { fail "seal-gen --resign $m"; continue; }
	nmut=$((nmut + 1))
	if ! same_verdict "$m.signed"; then
		fail "$m: verify says $(cat "$m.signed.err") $(tail -n 1 "$m.signed.out"), read whole $(cat "$m.signed.werr") $(tail -n 1 "$m.signed.wout")"
	elif grep -q "exit 0" "$m.signed.out"; then
		nheld=$((nheld + 1))
	fi
done
nrefused=$(cat mut*.signed.err | grep -c "record [0-9]*: record:")
echo "# $nmut logs changed at random: $nheld hold, $nrefused not a record or incomplete"
if [ "$nmut" -eq 200 ] && [ "$nheld" -ge 5 ] && [ "$nrefused" -ge 20 ]; then
	pass
else
	fail "changes too few or all alike: $nmut, $nheld held, $nrefused refused"
fi

# --- a torn last line -------------------------------------------------------
cp mix torn
head -c 100 mix | tr -d '\n' >>torn
t 1 "a torn last line" "$bin" verify --key key.pub torn &&
	has "$tmp/err" "record 5: torn" "torn: named" &&
	has "$tmp/err" "the 4 records before it hold" "torn: the others hold"
# A torn line after a record changed by someone without the key: that
# record is named for its signature, not said to hold.
perl -pe 's/"time":"2/"time":"1/ if eof' mix >forgedtorn
head -c 100 mix | tr -d '\n' >>forgedtorn
t 1 "a torn line after a changed record" "$bin" verify --key key.pub \
	forgedtorn && has "$tmp/err" "record 4: signature" "torn: changed" &&
	one_line "torn: changed"
cp torn torn.before
t 1 "appending after a torn line" "$bin" --seed=1 roll d6 --log torn --key key &&
	has "$tmp/err" "torn" "torn: append refused" &&
	cmp -s torn torn.before && pass

# --- refusals ----------------------------------------------------------------
cp log log.before
r1=$(($(wc -l <log) + 1))
r2=$((r1 + 1))
"$bin" --seed=40 seal --log log --key key --secret r1 --public "round 1" \
	sample 6 49 >/dev/null
"$bin" --seed=41 seal --log log --key key --secret r2 --public none \
	sample 6 49 >/dev/null
cp log log.sealed
# a wrong secret: the secret changed, the commitment kept
sed 's/ \(.\)/ 0/' r1 >wrong && chmod 600 wrong
if cmp -s r1 wrong; then sed 's/ \(.\)/ 1/' r1 >wrong; fi
t 1 "wrong secret" "$bin" reveal --log log --key key --secret wrong \
	--public-value x &&
	has "$tmp/err" "does not open the commitment of record" "wrong secret: named" &&
	one_line "wrong secret"
t 2 "no public value" "$bin" reveal --log log --key key --secret r1 &&
	has "$tmp/err" "is opened by 'round 1': give it with --public-value" \
		"no public value: named" && one_line "no public value"
t 2 "an empty public value" "$bin" reveal --log log --key key --secret r1 \
	--public-value ''
t 2 "a public value for none" "$bin" reveal --log log --key key --secret r2 \
	--public-value 5 &&
	has "$tmp/err" "sealed with no public value (none)" "value for none: named"
t 1 "another record's secret" "$bin" reveal --log log --key key --secret r2 \
	--record "$r1" &&
	has "$tmp/err" "the secret of record $r2, not of record $r1" \
		"another's: named"
t 1 "an unknown record" "$bin" reveal --log log --key key --secret r2 \
	--record 999 &&
	has "$tmp/err" "no sealed record 999" "unknown record: named"
t 1 "a secret of another log" "$bin" reveal --log rlog --key key --secret r2 &&
	has "$tmp/err" "matches no sealed record" "other log: named"
if cmp -s log log.sealed; then pass; else fail "a refused reveal appended"; fi
t 0 "reveal" "$bin" reveal --log log --key key --secret r1 --public-value x
t 1 "reveal twice" "$bin" reveal --log log --key key --secret r1 \
	--public-value x &&
	has "$tmp/err" "was revealed already" "twice: named" && one_line "twice"
echo 'just some text' >notalog
t 1 "seal into a file that is not a log" "$bin" --seed=1 seal --log notalog \
	--key key --secret r3 --public none sample 1 2 &&
	has "$tmp/err" "not a fairdie log" "not a log: seal" && [ ! -e r3 ] && pass
t 1 "verify a file that is not a log" "$bin" verify notalog &&
	has "$tmp/err" "not a fairdie log" "not a log: verify"
t 2 "seal without a key" "$bin" --seed=1 seal --log log --secret r3 \
	--public none sample 1 2 &&
	has "$tmp/err" "--key KEY is needed" "no key: named"
t 1 "seal with a missing key" "$bin" --seed=1 seal --log log --key nokey \
	--secret r3 --public none sample 1 2 &&
	has "$tmp/err" "nokey: No such file or directory" "missing key: named"
t 2 "seal with the public key" "$bin" --seed=1 seal --log log --key key.pub \
	--secret r3 --public none sample 1 2 &&
	has "$tmp/err" "a public key" "public key: named"
t 1 "reveal with a missing key" "$bin" reveal --log log --key nokey --secret r1
cp r1 r1.before
t 1 "seal over a secret" "$bin" --seed=1 seal --log log --key key --secret r1 \
	--public none sample 1 2 &&
	has "$tmp/err" "it is never overwritten" "secret: never overwritten" &&
	cmp -s r1 r1.before && pass
t 2 "seal an unknown request" "$bin" --seed=1 seal --log log --key key \
	--secret r4 --public none roulette
t 2 "seal a request with options" "$bin" --seed=1 seal --log log --key key \
	--secret r4 --public none sample -r 6 49
t 2 "seal a request its command refuses" "$bin" --seed=1 seal --log log \
	--key key --secret r4 --public none sample 7 5 &&
	has "$tmp/err" "sample: invalid K '7'" "seal sample 7 5: named" &&
	one_line "seal sample 7 5" && [ ! -e r4 ] && pass
t 2 "seal a bad expression" "$bin" --seed=1 seal --log log --key key \
	--secret r4 --public none roll 3d0 &&
	has "$tmp/err" "bad expression" "seal roll 3d0: named" && [ ! -e r4 ] && pass
t 2 "seal without --public" "$bin" --seed=1 seal --log log --key key \
	--secret r4 sample 6 49
t 1 "verify a missing log" "$bin" verify nolog
t 2 "verify without a log" "$bin" verify
# Nothing above truncated or rewrote the log: what it held is still there.
size=$(wc -c <log.before)
if head -c "$size" log | cmp -s - log.before; then pass; else
	fail "the log was rewritten"; fi
t 0 "the log after the refusals" "$bin" verify --key key.pub log

# --- concurrent appends -----------------------------------------------------
# 8 processes append receipts to one log at once: none lost, none torn.
per=${SEAL_CONCURRENT:-1000}
clog=$tmp/clog
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	clog=$(mktemp /dev/shm/fairdie-clog.XXXXXX)
	rm -f "$clog"
fi
for p in 1 2 3 4 5 6 7 8; do
	(
		i=0
		while [ "$i" -lt "$per" ]; do
			"$bin" --seed="$p$i" roll d6 --log "$clog" --key key \
				>/dev/null || echo "append $p $i failed"
			i=$((i + 1))
		done
	) >"conc$p" 2>&1 &
done
wait
cat conc? >"$tmp/err"
if [ -s "$tmp/err" ]; then fail "concurrent appends failed"; else pass; fi
t 0 "verify the concurrent log" "$bin" verify --key key.pub "$clog" &&
	has "$tmp/out" "$((8 * per)) records hold" "concurrent: no record lost"
rm -f "$clog"

test_done
