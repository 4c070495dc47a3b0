package serve

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"tai/internal/lazyre"
	"tai/internal/mcp/wire"
	"tai/internal/vault"
)

// RecordScheme starts the URI of every vault record tai serves as a
// resource: tai://record/ID.
const RecordScheme = "tai://record/"

// Bounds of the record listing.
const (
	// MaxListedRecords is how many of the newest records resources/list
	// shows; older ones are read by URI (record_search finds them).
	MaxListedRecords = 200
	// recordPage is the records of one resources/list page.
	recordPage = 50
)

// RecordURI is the resource URI of the record with id.
func RecordURI(id string) string { return RecordScheme + id }

// Records serves one profile's vault records (spilled results,
// transcripts, compacted history) as resources: resources/list shows the
// newest MaxListedRecords, resources/read returns one whole, redacted as
// tool results are, and completion/complete completes the id of the
// template tai://record/{id}. Another profile's record is not found.
type Records struct {
	Store   *vault.Store
	Profile string
}

var (
	_ Resources = (*Records)(nil)
	_ Completer = (*Records)(nil)
)

// recordID is the shape of a record id (vault.NewID), checked before the
// vault is asked.
var recordID = lazyre.New(`^[a-z][0-9a-z]{1,31}$`)

// ListResources implements Resources: pages of recordPage records, newest
// first; the cursor is the offset of the page. A record added between two
// pages moves the later ones down by one.
func (rs *Records) ListResources(ctx context.Context, cursor string) ([]wire.Resource, string, error) {
	offset := 0
	if cursor != "" {
		n, err := strconv.Atoi(cursor)
		if err != nil || n <= 0 || n >= MaxListedRecords || n%recordPage != 0 {
			return nil, "", ErrBadCursor
		}
		offset = n
	}
	recs, err := rs.Store.Records(ctx, vault.RecordQuery{Profile: rs.Profile, Limit: offset + recordPage + 1})
	if err != nil {
		return nil, "", fmt.Errorf("listing records: %w", err)
	}
	next := ""
	if len(recs) > offset+recordPage && offset+recordPage < MaxListedRecords {
		next = strconv.Itoa(offset + recordPage)
	}
	recs = recs[min(offset, len(recs)):min(offset+recordPage, len(recs))]
	out := make([]wire.Resource, 0, len(recs))
	for _, r := range recs {
		out = append(out, wire.Resource{URI: RecordURI(r.ID), Name: r.ID, Title: r.Kind + " record " + r.ID,
			Description: fmt.Sprintf("%s record of about %d bytes, created %s", r.Kind, r.Size, time.Unix(r.Created, 0).UTC().Format(time.RFC3339)),
			MIMEType:    "text/plain"})
	}
	return out, next, nil
}

// ResourceTemplates implements Resources.
func (rs *Records) ResourceTemplates(context.Context) ([]wire.ResourceTemplate, error) {
	return []wire.ResourceTemplate{{URITemplate: RecordScheme + "{id}", Name: "record",
		Title: "tai vault record", MIMEType: "text/plain",
		Description: "A record of tai's vault (a spilled tool result, a transcript), by id; record_search finds ids"}}, nil
}

// ReadResource implements Resources. A record over MCP_RESOURCE_MAX is
// refused with its size; record_get pages through it.
func (rs *Records) ReadResource(ctx context.Context, uri string) ([]wire.ResourceContents, error) {
	id, ok := strings.CutPrefix(uri, RecordScheme)
	if !ok || !recordID.MatchString(id) {
		return nil, ErrResourceNotFound
	}
	r, err := rs.Store.Record(ctx, id)
	switch {
	case vault.IsNotFound(err) || err == nil && r.Profile != rs.Profile:
		return nil, ErrResourceNotFound
	case err != nil:
		return nil, fmt.Errorf("reading record %s: %w", id, err)
	}
	body := rs.Store.Redact(r.Body)
	if len(body) > wire.ResourceMax {
		return nil, fmt.Errorf("record %s is %d bytes, over MCP_RESOURCE_MAX (%d); read it in pages with the record_get tool", id, len(body), wire.ResourceMax)
	}
	return []wire.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: &body}}, nil
}

// Complete implements Completer: the ids of the newest records that start
// with the value, for the template's {id}.
func (rs *Records) Complete(ctx context.Context, p wire.CompleteParams) ([]string, error) {
	if p.Ref.Type != "ref/resource" || p.Ref.URI != RecordScheme+"{id}" {
		if p.Ref.Type == "ref/prompt" {
			return nil, fmt.Errorf("%w: tai serves no prompts", ErrPromptNotFound)
		}
		return nil, fmt.Errorf("%w: tai serves one resource template, %s{id}", ErrResourceNotFound, RecordScheme)
	}
	if p.Argument.Name != "id" {
		return nil, fmt.Errorf("%w: the template %s{id} has only the variable id", ErrBadArguments, RecordScheme)
	}
	recs, err := rs.Store.Records(ctx, vault.RecordQuery{Profile: rs.Profile, Limit: MaxListedRecords})
	if err != nil {
		return nil, fmt.Errorf("listing records: %w", err)
	}
	var out []string
	for _, r := range recs {
		if strings.HasPrefix(r.ID, p.Argument.Value) {
			out = append(out, r.ID)
		}
	}
	return out, nil
}
