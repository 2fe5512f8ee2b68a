// Ladder mode: keep one Ladder/Seek stream open with the bot's token and play every match the
// ladder assigns, each in its own goroutine with a fresh bot, up to the declared concurrency.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	kassenv1 "kassen/gen/kassen/v1"
)

const (
	// The pause before the n-th reconnect of the Seek stream doubles from seekBackoff up to
	// seekBackoffCap (each pause drawn between half of that and all of it).
	seekBackoff    = 250 * time.Millisecond
	seekBackoffCap = 10 * time.Second
)

// refusals are the Seek errors no retry can fix: no or an unknown token, a paused or revoked
// bot, a bad request, or a newer Seek stream of the same bot (FAILED_PRECONDITION).
var refusals = map[codes.Code]bool{
	codes.Unauthenticated:    true,
	codes.PermissionDenied:   true,
	codes.InvalidArgument:    true,
	codes.FailedPrecondition: true,
}

type ladderOptions struct {
	address     string
	tokenFile   string
	matches     int // 0: keep playing
	concurrency int
}

// parseLadderOptions reads the ladder-mode flags; the address and the token file default to
// KASSEN_LADDER_ADDRESS and KASSEN_TOKEN_FILE. nil (and no error) means one-match mode.
func parseLadderOptions(args []string) (*ladderOptions, error) {
	o := &ladderOptions{}
	flags := flag.NewFlagSet(botName, flag.ContinueOnError)
	flags.StringVar(&o.address, "ladder", os.Getenv("KASSEN_LADDER_ADDRESS"), "the ladder's address (host:port): play in ladder mode")
	flags.StringVar(&o.tokenFile, "token-file", os.Getenv("KASSEN_TOKEN_FILE"), "the file holding the bot's ladder token")
	flags.IntVar(&o.matches, "matches", 0, "stop seeking after this many matches and exit once they are played (0: never)")
	flags.IntVar(&o.concurrency, "concurrency", 1, "matches played at once (1..16)")
	if err := flags.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case flags.NArg() > 0:
		return nil, fmt.Errorf("unexpected argument %q", flags.Arg(0))
	case o.address == "" && o.tokenFile == "":
		return nil, nil
	case o.address == "" || o.tokenFile == "":
		return nil, errors.New("ladder mode needs both --ladder ADDRESS and --token-file FILE")
	case o.matches < 0:
		return nil, errors.New("--matches must not be negative")
	case o.concurrency < 1 || o.concurrency > 16:
		return nil, errors.New("--concurrency must be between 1 and 16")
	}
	return o, nil
}

// ladderRun is what the Seek loop shares with the matches it starts.
type ladderRun struct {
	opts *ladderOptions
	// referee is on the ladder's own connection: for assignments that name no other referee.
	referee kassenv1.RefereeClient
	seed    uint64
	started int // assignments received (only the Seek loop touches it)
	failed  atomic.Int32
	playing sync.WaitGroup
}

// runLadder seeks until the ladder refuses the bot or --matches assignments were received,
// then waits for the matches in progress. 0: every match was played to its end.
func runLadder(opts *ladderOptions, seed uint64) int {
	raw, err := os.ReadFile(opts.tokenFile)
	if err != nil {
		log.Printf("cannot read the token file: %v", err)
		return 2
	}
	token := strings.TrimSpace(string(raw))
	if token == "" {
		log.Printf("the token file %s is empty", opts.tokenFile)
		return 2
	}

	conn, err := grpc.NewClient(opts.address, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Printf("cannot create a client for %s: %v", opts.address, err)
		return 1
	}
	defer conn.Close()

	r := &ladderRun{opts: opts, referee: kassenv1.NewRefereeClient(conn), seed: seed}
	ladder := kassenv1.NewLadderClient(conn)
	// Only Seek carries the token; each match is joined with its own ticket.
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+token)

	code := 0
	for attempt := 1; ; {
		enough, heard, err := r.seek(ctx, ladder)
		if enough {
			break
		}
		if s, ok := status.FromError(err); ok && refusals[s.Code()] {
			log.Printf("the ladder refused the bot: %s (%s)", s.Message(), s.Code())
			code = 1
			break
		}
		if heard {
			attempt = 1 // the stream worked for a while: start the backoff over
		}
		pause := backoff(attempt)
		log.Printf("seek stream lost (%v); reconnecting in %v", err, pause.Round(time.Millisecond))
		time.Sleep(pause)
		attempt++
	}
	r.playing.Wait()
	if n := r.failed.Load(); n > 0 {
		log.Printf("%d of %d matches were not played to their end", n, r.started)
		code = 1
	}
	return code
}

// seek reads one Seek stream and starts a match for each assignment. enough: --matches
// assignments were received and the stream was closed; otherwise err says why it ended
// (heard: at least one message came first).
func (r *ladderRun) seek(parent context.Context, ladder kassenv1.LadderClient) (enough, heard bool, err error) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel() // closing the stream tells the ladder we are no longer seeking
	stream, err := ladder.Seek(ctx, &kassenv1.SeekRequest{Concurrency: uint32(r.opts.concurrency)})
	if err != nil {
		return false, false, err
	}
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return false, heard, errors.New("the ladder ended the stream")
		}
		if err != nil {
			return false, heard, err
		}
		heard = true
		switch m := msg.GetKind().(type) {
		case *kassenv1.SeekResponse_Seeking:
			log.Printf("seeking as bot %s (%d at once)", m.Seeking.GetBotId(), m.Seeking.GetConcurrency())
		case *kassenv1.SeekResponse_Assignment:
			r.start(m.Assignment)
			if r.opts.matches > 0 && r.started >= r.opts.matches {
				return true, true, nil
			}
		case *kassenv1.SeekResponse_MatchEnded:
			// reason is the match's; seat_reason (and detail) what happened to our seat.
			e := m.MatchEnded
			log.Printf("match %s ended (%s), rank %d; our seat %d: %s %s",
				e.GetMatchId(), e.GetReason(), e.GetRank(), e.GetSeat(), e.GetSeatReason(), e.GetDetail())
		}
	}
}

// start plays an assigned match in its own goroutine, with a fresh bot (its own RNG and seat).
func (r *ladderRun) start(a *kassenv1.Assignment) {
	r.started++
	seed := r.seed + uint64(r.started)
	log.Printf("assigned match %s, seat %d (%s %s)", a.GetMatchId(), a.GetSeat(), a.GetSetup().GetGame(), a.GetSetup().GetVariant())
	r.playing.Add(1)
	go func() {
		defer r.playing.Done()
		if err := r.play(a, seed); err != nil {
			log.Printf("match %s: %v", a.GetMatchId(), err)
			r.failed.Add(1)
		}
	}()
}

// play plays an assigned match on the referee that hosts it: the ladder's own connection when
// the assignment names no other referee, else a connection of its own to referee_address.
func (r *ladderRun) play(a *kassenv1.Assignment, seed uint64) error {
	address := a.GetRefereeAddress()
	if address == "" {
		return playMatch(context.Background(), r.referee, a.GetTicket(), seed)
	}
	// This bot trusts no CA of its own for the ladder, so a TLS referee is checked against the
	// system's roots.
	creds := insecure.NewCredentials()
	if a.GetRefereeTls() {
		creds = credentials.NewClientTLSFromCert(nil, "")
	}
	conn, err := grpc.NewClient(address, grpc.WithTransportCredentials(creds))
	if err != nil {
		return fmt.Errorf("cannot create a client for the referee %s: %w", address, err)
	}
	defer conn.Close()
	log.Printf("match %s is hosted by the referee at %s", a.GetMatchId(), address)
	return playMatch(context.Background(), kassenv1.NewRefereeClient(conn), a.GetTicket(), seed)
}

// backoff is the pause before the attempt-th reconnect (1, 2, ...), with jitter so that many
// bots do not come back at the same instant.
func backoff(attempt int) time.Duration {
	ceiling := seekBackoff << min(attempt-1, 10)
	ceiling = min(ceiling, seekBackoffCap)
	return ceiling/2 + rand.N(ceiling/2+1)
}
